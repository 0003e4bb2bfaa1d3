// Ending console sessions: one from the list, every other one, or (inside another change's transaction) all
// but the current one — a password change and turning two-factor authentication on or off do that. A revoked
// session is refused from its next request (resolve-browser-session.ts); the row stays, marked revoked.
import { recordAudit } from '@/server/audit/record-audit';
import { db, type Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { browserSessionSelect, toBrowserSessionDto } from './list-browser-sessions';

type Tx = Prisma.TransactionClient;

/**
 * Revokes the user's open browser sessions except `keepBrowserSessionId` (the one making the request, when
 * it is a browser), in the caller's transaction. Returns how many were ended.
 */
export async function endOtherBrowserSessions(tx: Tx, p: { userId: string; keepBrowserSessionId?: string; now?: Date }): Promise<number> {
  const ended = await tx.browserSession.updateMany({
    where: { userId: p.userId, revokedAt: null, ...(p.keepBrowserSessionId ? { id: { not: p.keepBrowserSessionId } } : {}) },
    data: { revokedAt: p.now ?? new Date() },
  });
  return ended.count;
}

/** Signs one of the user's browsers out. Someone else's session (or an unknown id) is a 404. */
export async function revokeBrowserSession(p: { userId: string; browserSessionId: string }): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const revoked = await tx.browserSession.updateMany({ where: { id: p.browserSessionId, userId: p.userId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (revoked.count === 0) throw new AppError('not_found', 'Session not found');
    const row = await tx.browserSession.findUniqueOrThrow({ where: { id: p.browserSessionId }, select: { ...browserSessionSelect, user: { select: { personalAccountId: true } } } });
    const { user, ...fields } = row;
    const { current: _current, ...before } = toBrowserSessionDto(fields);
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'browser_session.revoke', target: { type: 'browser_session', id: p.browserSessionId }, before });
  });
}

/** "Sign out all other sessions": every browser of the user but the one asking. */
export async function revokeOtherBrowserSessions(p: { userId: string; keepBrowserSessionId?: string }): Promise<{ revoked: number }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: p.userId }, select: { personalAccountId: true } });
    if (!user) throw new AppError('not_found', 'User not found');
    const revoked = await endOtherBrowserSessions(tx, p);
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'browser_session.revoke_others', target: { type: 'user', id: p.userId }, after: { revoked_browser_sessions: revoked } });
    return { revoked };
  });
}

/** Signing out (next-auth's signOut event): the cookie's own session ends, whoever else might hold a copy. */
export async function endSignedOutBrowserSession(p: { userId: string; browserSessionId: string }): Promise<void> {
  const prisma = await db();
  await prisma.browserSession.updateMany({ where: { id: p.browserSessionId, userId: p.userId, revokedAt: null }, data: { revokedAt: new Date() } });
}
