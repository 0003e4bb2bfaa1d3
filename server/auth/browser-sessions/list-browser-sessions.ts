// Account settings → Sessions: where the user is signed in to the console. Revoked sessions and those not seen
// for longer than a cookie lives are left out; the one making the request comes first, marked `current`.
import { db } from '@/server/db';
import { BROWSER_SESSION_MAX_AGE_S } from './browser-session-policy';

export interface BrowserSessionDto {
  id: string;
  /** e.g. "Chrome on Linux" */
  device: string;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  /** The browser making this request ("This device"). */
  current: boolean;
}

export const browserSessionSelect = { id: true, userAgent: true, ip: true, createdAt: true, lastSeenAt: true } as const;

export function toBrowserSessionDto(row: { id: string; userAgent: string; ip: string | null; createdAt: Date; lastSeenAt: Date }, currentId?: string): BrowserSessionDto {
  return { id: row.id, device: row.userAgent, ip: row.ip, created_at: row.createdAt.toISOString(), last_seen_at: row.lastSeenAt.toISOString(), current: row.id === currentId };
}

export async function listBrowserSessions(p: { userId: string; currentBrowserSessionId?: string; now?: Date }): Promise<BrowserSessionDto[]> {
  const now = p.now ?? new Date();
  const prisma = await db();
  const rows = await prisma.browserSession.findMany({
    where: { userId: p.userId, revokedAt: null, lastSeenAt: { gt: new Date(now.getTime() - BROWSER_SESSION_MAX_AGE_S * 1000) } },
    select: browserSessionSelect,
    orderBy: [{ lastSeenAt: 'desc' }, { id: 'asc' }],
  });
  const sessions = rows.map((row) => toBrowserSessionDto(row, p.currentBrowserSessionId));
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}
