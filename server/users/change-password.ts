// Changing (or, for a user who signed up with GitHub/Google, setting) the password. The current password is
// required when there is one: an open session alone must not be enough to take the account over.
// Other sessions end: every account auth token of the user (CLIs, editors — the Sessions page) is revoked,
// except the one making this call when it is a token, and every console browser session but the one making
// the call (server/auth/browser-sessions/): someone who knew the old password is signed out everywhere.
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { hashPassword, verifyPassword } from '@/server/auth/password';
import { endOtherBrowserSessions } from '@/server/auth/browser-sessions/revoke-browser-sessions';
import { beginSignInAttempt, recordSignInSuccess } from '@/server/auth/sign-in-throttle';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { passwordSchema } from './create-user';

export const changePasswordInput = z.strictObject({
  current_password: z.string().max(200).optional().describe('Required when the user has a password'),
  new_password: passwordSchema,
});

export async function changePassword(p: {
  userId: string;
  input: z.input<typeof changePasswordInput>;
  keepAuthTokenId?: string;
  /** The browser making the change stays signed in; every other one is signed out. */
  keepBrowserSessionId?: string;
}): Promise<{ changed: true; revoked_auth_tokens: number; revoked_browser_sessions: number }> {
  const input = changePasswordInput.parse(p.input);
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: { email: true, passwordHash: true, personalAccountId: true } });
  if (!user) throw new AppError('not_found', 'User not found');
  if (user.passwordHash) {
    // Guessing the current password through this form counts like guessing it at sign-in.
    const throttle = { email: user.email, ip: 'change-password' };
    await beginSignInAttempt(throttle);
    if (!input.current_password || !(await verifyPassword(input.current_password, user.passwordHash))) {
      throw new AppError('bad_request', 'The current password is not right', { field: 'current_password' });
    }
    await recordSignInSuccess(throttle);
    if (input.current_password === input.new_password) throw new AppError('bad_request', 'The new password must differ from the current one', { field: 'new_password' });
  }
  const passwordHash = await hashPassword(input.new_password);
  return prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: p.userId }, data: { passwordHash } });
    const revoked = await tx.authToken.updateMany({ where: { userId: p.userId, revokedAt: null, ...(p.keepAuthTokenId ? { id: { not: p.keepAuthTokenId } } : {}) }, data: { revokedAt: new Date() } });
    const revokedBrowsers = await endOtherBrowserSessions(tx, { userId: p.userId, keepBrowserSessionId: p.keepBrowserSessionId });
    await recordAudit(tx, {
      accountId: user.personalAccountId,
      action: 'user.password_change',
      target: { type: 'user', id: p.userId },
      after: { had_password: Boolean(user.passwordHash), revoked_auth_tokens: revoked.count, revoked_browser_sessions: revokedBrowsers },
    });
    return { changed: true as const, revoked_auth_tokens: revoked.count, revoked_browser_sessions: revokedBrowsers };
  });
}
