// The per-request check of a console (cookie) session, for pages and server actions (current-user.ts) and for
// tRPC and the playground (console/session-principal.ts). One statement reads the user, whether an operator
// suspended them, and the browser session row by primary key; a user that is gone or suspended, or a session
// revoked or missing, resolves to null: the request is treated as signed out.
// lastSeenAt (and the address) is written only when older than LAST_SEEN_THROTTLE_MS.
import { db } from '@/server/db';
import { LAST_SEEN_THROTTLE_MS, legacyBrowserSessionId, type BrowserClient } from './browser-session-policy';
import { summarizeUserAgent } from './summarize-user-agent';

export interface ResolvedBrowserSession {
  user: { id: string; email: string; name: string; image: string | null; termsVersion: string | null };
  /** The session's row (for a cookie from before session tracking: the user's legacy row). */
  browserSessionId: string;
}

interface Row {
  id: string;
  email: string;
  name: string;
  image: string | null;
  termsVersion: string | null;
  suspendedAt: Date | null;
  sessionId: string | null;
  revokedAt: Date | null;
  lastSeenAt: Date | string | null;
}

/**
 * @param browserSessionId the cookie's `sid`; absent for cookies issued before session tracking, which are
 *   tied to one lazily created row per user (browser-session-policy.ts legacyBrowserSessionId).
 */
export async function resolveBrowserSession(p: { userId: string; browserSessionId?: string | null; client?: BrowserClient; now?: Date }): Promise<ResolvedBrowserSession | null> {
  const now = p.now ?? new Date();
  const sessionId = p.browserSessionId || legacyBrowserSessionId(p.userId);
  const prisma = await db();
  const [row] = await prisma.$queryRaw<Row[]>`
    SELECT u.id, u.email, u.name, u.image, u."termsVersion", u."suspendedAt",
           s.id AS "sessionId", s."revokedAt", s."lastSeenAt"
      FROM "User" u
      LEFT JOIN "BrowserSession" s ON s.id = ${sessionId} AND s."userId" = u.id
     WHERE u.id = ${p.userId}`;
  if (!row || row.suspendedAt) return null;
  const user = { id: row.id, email: row.email, name: row.name, image: row.image, termsVersion: row.termsVersion };
  if (row.sessionId === null) {
    if (p.browserSessionId) return null; // revoked rows are kept; a missing one was never ours (or its user was deleted)
    await prisma.$executeRaw`
      INSERT INTO "BrowserSession" (id, "userId", "createdAt", "lastSeenAt", "userAgent", ip)
      VALUES (${sessionId}, ${p.userId}, ${now}, ${now}, ${summarizeUserAgent(p.client?.userAgent)}, ${p.client?.ip ?? null})
      ON CONFLICT (id) DO NOTHING`;
    return { user, browserSessionId: sessionId };
  }
  if (row.revokedAt) return null;
  if (row.lastSeenAt === null || now.getTime() - new Date(row.lastSeenAt).getTime() >= LAST_SEEN_THROTTLE_MS) {
    await prisma.browserSession.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { lastSeenAt: now, ...(p.client?.ip ? { ip: p.client.ip } : {}) },
    });
  }
  return { user, browserSessionId: sessionId };
}
