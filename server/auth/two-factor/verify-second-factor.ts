// The second factor of a user with two-factor authentication on: a TOTP code (each 30-second step accepted
// once, so a code seen over a shoulder cannot be replayed) or one of their unused recovery codes (spent on
// use). Used by password sign-in (verify-credentials.ts) and by turning two-factor off.
import { db, Prisma } from '@/server/db';
import { decryptSecret } from '@/server/crypto/secret-box';
import { findRecoveryCodeHash, matchTotpStep } from '../totp';

export type SecondFactorResult = { ok: true; method: 'totp' | 'recovery_code'; recoveryCodesLeft: number } | { ok: false };

export async function verifySecondFactor(p: { userId: string; code: string; now?: Date; tx?: Prisma.TransactionClient }): Promise<SecondFactorResult> {
  const now = p.now ?? new Date();
  const client = p.tx ?? (await db());
  const user = await client.user.findUnique({ where: { id: p.userId }, select: { totpSecretEncrypted: true, totpEnabledAt: true } });
  if (!user?.totpEnabledAt || !user.totpSecretEncrypted) return { ok: false };
  const code = p.code.trim();
  if (code.length === 0 || code.length > 64) return { ok: false };

  const step = matchTotpStep(decryptSecret(user.totpSecretEncrypted), code, now);
  if (step !== null) {
    // Conditional write: of two requests with the same code, one wins.
    const claimed = await client.user.updateMany({ where: { id: p.userId, OR: [{ totpLastUsedStep: null }, { totpLastUsedStep: { lt: step } }] }, data: { totpLastUsedStep: step } });
    if (claimed.count !== 1) return { ok: false };
    return { ok: true, method: 'totp', recoveryCodesLeft: await client.recoveryCode.count({ where: { userId: p.userId, usedAt: null } }) };
  }

  const unused = await client.recoveryCode.findMany({ where: { userId: p.userId, usedAt: null }, select: { codeHash: true } });
  const hash = findRecoveryCodeHash(code, unused.map((r) => r.codeHash));
  if (!hash) return { ok: false };
  const spent = await client.recoveryCode.updateMany({ where: { userId: p.userId, codeHash: hash, usedAt: null }, data: { usedAt: now } });
  if (spent.count !== 1) return { ok: false };
  return { ok: true, method: 'recovery_code', recoveryCodesLeft: unused.length - 1 };
}
