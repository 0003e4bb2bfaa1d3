// Turning two-factor authentication off needs a current code (or a recovery code): a session left open on a
// shared computer is not enough to remove the second factor. Attempts go through the sign-in throttle.
// Every other console browser session is signed out (as when turning it on, or changing the password).
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { endOtherBrowserSessions } from '../browser-sessions/revoke-browser-sessions';
import { beginSignInAttempt, recordSignInSuccess } from '../sign-in-throttle';
import { totpCodeField } from './two-factor-setup';
import { verifySecondFactor } from './verify-second-factor';

export const disableTwoFactorInput = z.strictObject({ code: totpCodeField });

export async function disableTwoFactor(p: { userId: string; input: z.input<typeof disableTwoFactorInput>; keepBrowserSessionId?: string; now?: Date }): Promise<{ enabled: false; revoked_browser_sessions: number }> {
  const { code } = disableTwoFactorInput.parse(p.input);
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: { email: true, personalAccountId: true, totpEnabledAt: true } });
  if (!user) throw new AppError('not_found', 'User not found');
  if (!user.totpEnabledAt) throw new AppError('conflict', 'Two-factor authentication is not on');
  const throttle = { email: user.email, ip: 'two-factor-settings' };
  await beginSignInAttempt(throttle);
  const result = await verifySecondFactor({ userId: p.userId, code, now: p.now });
  if (!result.ok) throw new AppError('bad_request', 'That code is not right: enter the current code from your app or an unused recovery code.', { reason: 'invalid_code' });
  await recordSignInSuccess(throttle);
  const revoked = await prisma.$transaction(async (tx) => {
    await tx.recoveryCode.deleteMany({ where: { userId: p.userId } });
    await tx.user.update({ where: { id: p.userId }, data: { totpEnabledAt: null, totpSecretEncrypted: null, totpLastUsedStep: null } });
    const ended = await endOtherBrowserSessions(tx, { userId: p.userId, keepBrowserSessionId: p.keepBrowserSessionId });
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'user.two_factor_disable', target: { type: 'user', id: p.userId }, after: { verified_with: result.method, revoked_browser_sessions: ended } });
    return ended;
  });
  return { enabled: false, revoked_browser_sessions: revoked };
}
