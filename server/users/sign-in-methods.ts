// The ways a user can sign in — a password and the OAuth identities linked to them (GitHub, Google, an
// OpenID issuer) — and the two-factor state, for the account settings page; and unlinking an identity,
// refused when it is the last way in.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';

export interface SignInMethodsDto {
  email: string;
  has_password: boolean;
  identities: { id: string; provider: string; created_at: string }[];
  two_factor: { enabled: boolean; enabled_at: string | null; recovery_codes_left: number };
}

export async function getSignInMethods(p: { userId: string }): Promise<SignInMethodsDto> {
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { id: p.userId },
    select: { email: true, passwordHash: true, totpEnabledAt: true, oauthIdentities: { select: { id: true, provider: true, createdAt: true }, orderBy: { createdAt: 'asc' } } },
  });
  if (!user) throw new AppError('not_found', 'User not found');
  const left = user.totpEnabledAt ? await prisma.recoveryCode.count({ where: { userId: p.userId, usedAt: null } }) : 0;
  return {
    email: user.email,
    has_password: user.passwordHash !== null,
    identities: user.oauthIdentities.map((i) => ({ id: i.id, provider: i.provider, created_at: i.createdAt.toISOString() })),
    two_factor: { enabled: user.totpEnabledAt !== null, enabled_at: user.totpEnabledAt?.toISOString() ?? null, recovery_codes_left: left },
  };
}

export async function unlinkSignInMethod(p: { userId: string; identityId: string }): Promise<{ unlinked: true; id: string }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${p.userId} FOR NO KEY UPDATE`;
    const user = await tx.user.findUnique({ where: { id: p.userId }, select: { personalAccountId: true, passwordHash: true, oauthIdentities: { select: { id: true, provider: true } } } });
    if (!user) throw new AppError('not_found', 'User not found');
    const identity = user.oauthIdentities.find((i) => i.id === p.identityId);
    if (!identity) throw new AppError('not_found', 'Sign-in method not found');
    const remaining = user.oauthIdentities.length - 1 + (user.passwordHash ? 1 : 0);
    if (remaining < 1) throw new AppError('conflict', 'This is your only way to sign in. Set a password or link another provider first.');
    await tx.oAuthIdentity.delete({ where: { id: identity.id } });
    await recordAudit(tx, { accountId: user.personalAccountId, action: 'user.sign_in_method_unlink', target: { type: 'user', id: p.userId }, before: { provider: identity.provider } });
    return { unlinked: true as const, id: identity.id };
  });
}
