// What happens when an organization's issuer sends someone back (next-auth has checked state, PKCE, nonce,
// the issuer and the ID token): the issuer must vouch for the email (email_verified), the email must be at a
// domain this organization has verified — an organization's issuer is trusted for its own domains only, so an
// owner who runs their own issuer cannot sign in as, or link to, anybody else's address — then the user is
// found or created like any OAuth sign-in (link-oauth-user.ts: by (issuer, subject), else by verified email)
// and joins the organization on first sign-in.
import { linkOAuthUser } from '@/server/auth/link-oauth-user';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { joinOrganizationBySso } from './join-organization-by-sso';
import { oidcIdentityProvider } from './sso-providers';

export type SsoRefusal = 'UnverifiedEmail' | 'SsoDomain' | 'SsoNoSeat';

export class SsoSignInRefused extends Error {
  constructor(readonly reason: SsoRefusal, message: string) {
    super(message);
    this.name = 'SsoSignInRefused';
  }
}

export interface SsoProfile {
  sub: string;
  email?: string | null;
  email_verified?: unknown;
  name?: string | null;
}

export async function completeOrganizationSsoSignIn(p: { organizationId: string; issuer: string; profile: SsoProfile }): Promise<{ userId: string; joined: boolean }> {
  const email = p.profile.email?.trim().toLowerCase();
  // Only a boolean true: "true" strings and absent claims are not a verification.
  if (!email || p.profile.email_verified !== true) throw new SsoSignInRefused('UnverifiedEmail', 'The identity provider did not verify this email address');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const prisma = await db();
  const verified = await prisma.organizationSsoDomain.findFirst({ where: { organizationId: p.organizationId, verifiedDomain: domain }, select: { id: true } });
  if (!verified) throw new SsoSignInRefused('SsoDomain', `${domain} is not a verified domain of this organization's single sign-on`);

  const linked = await linkOAuthUser({ provider: oidcIdentityProvider(p.issuer), providerAccountId: p.profile.sub, email, emailVerified: true, name: p.profile.name });
  try {
    const { joined } = await joinOrganizationBySso({ organizationId: p.organizationId, userId: linked.userId });
    return { userId: linked.userId, joined };
  } catch (err) {
    if (err instanceof AppError && err.code === 'conflict') throw new SsoSignInRefused('SsoNoSeat', err.message);
    throw err;
  }
}
