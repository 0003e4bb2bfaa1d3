// A console sign-in (any provider: password, GitHub, Google, OpenID Connect, an organization's SSO) opens a
// browser session; next-auth's jwt callback puts its id in the cookie as `sid` (server/auth/next-auth.ts).
// The user's rows that can no longer matter — revoked, or unseen, for longer than a cookie lives — are
// deleted on the way (a missing row is as signed out as a revoked one). The legacy row is kept: with it gone,
// a cookie without `sid` would get a fresh one (resolve-browser-session.ts).
import { db } from '@/server/db';
import { BROWSER_SESSION_MAX_AGE_S, legacyBrowserSessionId, type BrowserClient } from './browser-session-policy';
import { summarizeUserAgent } from './summarize-user-agent';

export async function createBrowserSession(p: { userId: string; client?: BrowserClient; now?: Date }): Promise<{ id: string }> {
  const now = p.now ?? new Date();
  const expired = new Date(now.getTime() - BROWSER_SESSION_MAX_AGE_S * 1000);
  const prisma = await db();
  await prisma.browserSession.deleteMany({
    where: { userId: p.userId, NOT: { id: legacyBrowserSessionId(p.userId) }, OR: [{ revokedAt: { lt: expired } }, { lastSeenAt: { lt: expired } }] },
  });
  return prisma.browserSession.create({
    data: { userId: p.userId, userAgent: summarizeUserAgent(p.client?.userAgent), ip: p.client?.ip ?? null, createdAt: now, lastSeenAt: now },
    select: { id: true },
  });
}
