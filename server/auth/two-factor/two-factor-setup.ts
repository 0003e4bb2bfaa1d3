// Turning two-factor authentication on, in two steps so a user cannot lock themselves out with a secret their
// app never received: startTwoFactorSetup stores a new secret (encrypted, not yet enforced) and returns it with
// its otpauth:// URI as a QR code; confirmTwoFactorSetup checks a code from the app against it, switches
// two-factor on, and returns ten recovery codes — the only time they are shown (only hashes are kept).
import QRCode from 'qrcode';
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { decryptSecret, encryptSecret, SecretBoxError } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { endOtherBrowserSessions } from '../browser-sessions/revoke-browser-sessions';
import { hashRecoveryCode, matchTotpStep, newRecoveryCodes, newTotpSecret, totpUri } from '../totp';

export const totpCodeField = z.string().trim().min(1, 'Enter the code').max(64);
export const confirmTwoFactorInput = z.strictObject({ code: totpCodeField });

function encryptOrThrow(secret: string): string {
  try {
    return encryptSecret(secret);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new AppError('service_unavailable', `Two-factor authentication cannot be set up on this instance: ${err.message}. The operator must set ENCRYPTION_KEY (32 bytes, base64 or hex).`);
  }
}

export interface TwoFactorSetup {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauth_uri: string;
  /** PNG data URL of the URI's QR code. */
  qr_data_url: string;
}

export async function startTwoFactorSetup(p: { userId: string }): Promise<TwoFactorSetup> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: { email: true, totpEnabledAt: true } });
  if (!user) throw new AppError('not_found', 'User not found');
  if (user.totpEnabledAt) throw new AppError('conflict', 'Two-factor authentication is already on; turn it off first to set up a new app');
  const secret = newTotpSecret();
  // A restarted setup replaces the pending secret: only the last QR code shown will work.
  await prisma.user.update({ where: { id: p.userId }, data: { totpSecretEncrypted: encryptOrThrow(secret), totpLastUsedStep: null } });
  const uri = totpUri(secret, user.email);
  return { secret, otpauth_uri: uri, qr_data_url: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 200 }) };
}

/** Turns it on; every other console browser session is signed out (they signed in without a second factor). */
export async function confirmTwoFactorSetup(p: { userId: string; input: z.input<typeof confirmTwoFactorInput>; keepBrowserSessionId?: string; now?: Date }): Promise<{ recovery_codes: string[]; revoked_browser_sessions: number }> {
  const { code } = confirmTwoFactorInput.parse(p.input);
  const now = p.now ?? new Date();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${p.userId} FOR NO KEY UPDATE`;
    const user = await tx.user.findUnique({ where: { id: p.userId }, select: { personalAccountId: true, totpSecretEncrypted: true, totpEnabledAt: true } });
    if (!user) throw new AppError('not_found', 'User not found');
    if (user.totpEnabledAt) throw new AppError('conflict', 'Two-factor authentication is already on');
    if (!user.totpSecretEncrypted) throw new AppError('bad_request', 'Start the setup first: no authenticator secret is pending');
    const step = matchTotpStep(decryptSecret(user.totpSecretEncrypted), code, now);
    if (step === null) throw new AppError('bad_request', 'That code is not right. Check the time on your device and enter the current code.', { reason: 'invalid_code' });
    const codes = newRecoveryCodes();
    await tx.recoveryCode.deleteMany({ where: { userId: p.userId } });
    await tx.recoveryCode.createMany({ data: codes.map((c) => ({ userId: p.userId, codeHash: hashRecoveryCode(c) })) });
    await tx.user.update({ where: { id: p.userId }, data: { totpEnabledAt: now, totpLastUsedStep: step } });
    const revoked = await endOtherBrowserSessions(tx, { userId: p.userId, keepBrowserSessionId: p.keepBrowserSessionId, now });
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'user.two_factor_enable', target: { type: 'user', id: p.userId }, after: { method: 'totp', recovery_codes: codes.length, revoked_browser_sessions: revoked } });
    return { recovery_codes: codes, revoked_browser_sessions: revoked };
  });
}
