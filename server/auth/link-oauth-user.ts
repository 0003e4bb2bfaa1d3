// GitHub / Google sign-in: find the user by the linked identity, else by verified email (linking the
// identity), else create one. Only a verified email may link or create: the provider has proven the
// address, which is what makes linking it to an existing account safe.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { createUser } from '@/server/users/create-user';

export interface OAuthProfileInput {
  provider: string;
  providerAccountId: string;
  email: string | null | undefined;
  emailVerified: boolean;
  name?: string | null;
  image?: string | null;
}

export async function linkOAuthUser(p: OAuthProfileInput): Promise<{ userId: string; created: boolean }> {
  const prisma = await db();
  const identity = await prisma.oAuthIdentity.findUnique({
    where: { provider_providerAccountId: { provider: p.provider, providerAccountId: p.providerAccountId } },
    select: { userId: true },
  });
  if (identity) return { userId: identity.userId, created: false };
  if (!p.email || !p.emailVerified) {
    throw new AppError('forbidden', `Your ${p.provider} account has no verified email address; verify one there or sign in with a password`);
  }
  const email = p.email.trim().toLowerCase();

  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await prisma.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true, passwordHash: true } });
    if (existing) {
      await prisma.$transaction([
        prisma.oAuthIdentity.create({ data: { userId: existing.id, provider: p.provider, providerAccountId: p.providerAccountId } }),
        // Pre-account hijacking: a password set on this email before anyone proved owning it may belong to
        // someone else, so it stops working once the real owner arrives through a verified provider.
        ...(existing.emailVerifiedAt ? [] : [prisma.user.update({ where: { id: existing.id }, data: { emailVerifiedAt: new Date(), passwordHash: null } })]),
      ]);
      return { userId: existing.id, created: false };
    }
    try {
      const user = await createUser({ email, name: p.name?.trim().slice(0, 100) || undefined, emailVerified: true });
      await prisma.$transaction([
        prisma.oAuthIdentity.create({ data: { userId: user.id, provider: p.provider, providerAccountId: p.providerAccountId } }),
        prisma.user.update({ where: { id: user.id }, data: { image: p.image ?? null } }),
      ]);
      return { userId: user.id, created: true };
    } catch (err) {
      // Someone created the same email between our read and write: link to it on the second pass.
      if (!(err instanceof AppError && err.code === 'conflict')) throw err;
    }
  }
  throw new AppError('conflict', 'Could not link this sign-in, please try again');
}
