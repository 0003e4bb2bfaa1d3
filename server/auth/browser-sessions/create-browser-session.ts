// A console sign-in (any provider: password, GitHub, Google, OpenID Connect, an organization's SSO) opens a
// browser session; next-auth's jwt callback puts its id in the cookie as `sid` (server/auth/next-auth.ts).
import { db } from '@/server/db';
import type { BrowserClient } from './browser-session-policy';
import { summarizeUserAgent } from './summarize-user-agent';

export async function createBrowserSession(p: { userId: string; client?: BrowserClient }): Promise<{ id: string }> {
  const prisma = await db();
  return prisma.browserSession.create({
    data: { userId: p.userId, userAgent: summarizeUserAgent(p.client?.userAgent), ip: p.client?.ip ?? null },
    select: { id: true },
  });
}
