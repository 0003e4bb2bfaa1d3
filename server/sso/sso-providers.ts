// The next-auth providers of single sign-on. Both are next-auth's generic OpenID Connect provider: discovery
// from the issuer, the authorization code flow with PKCE, state and nonce (all three checked at the callback,
// by oauth4webapi: the `iss` response parameter, the ID token's issuer, audience, signature and nonce), then
// the userinfo endpoint for the email (where every issuer puts it; many leave it out of the ID token).
//   - instance-wide: OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET, provider id `oidc`;
//   - an organization's own issuer (OrganizationSso), provider id `sso-<organization id>`, built at run time
//     for the one request that names it (next-auth's lazy configuration receives the request).
import type { OIDCConfig } from 'next-auth/providers';
import { decryptSecret } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { organizationIdOfProvider, organizationProviderId } from './sso-dto';

export const INSTANCE_PROVIDER_ID = 'oidc';

type OidcProfile = { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string };

function oidcProvider(p: { id: string; name: string; issuer: string; clientId: string; clientSecret: string }): OIDCConfig<OidcProfile> {
  return {
    id: p.id,
    name: p.name,
    type: 'oidc',
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecret: p.clientSecret,
    checks: ['pkce', 'state', 'nonce'],
    idToken: false,
    authorization: { params: { scope: 'openid email profile' } },
    profile: (profile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.picture ?? null }),
  };
}

/** The instance-wide issuer when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set. */
export function instanceOidcProvider(): OIDCConfig<OidcProfile> | null {
  const e = env();
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET) return null;
  return oidcProvider({ id: INSTANCE_PROVIDER_ID, name: e.OIDC_NAME, issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET });
}

export interface OrganizationSsoProvider {
  organizationId: string;
  organizationName: string;
  issuer: string;
  provider: OIDCConfig<OidcProfile>;
}

/** An organization's issuer as a provider, or null when it has none (or no verified domain: nobody may use it). */
export async function organizationSsoProvider(organizationId: string): Promise<OrganizationSsoProvider | null> {
  const prisma = await db();
  const sso = await prisma.organizationSso.findUnique({
    where: { organizationId },
    select: { issuer: true, clientId: true, encryptedClientSecret: true, organization: { select: { name: true } }, domains: { where: { verifiedAt: { not: null } }, select: { domain: true }, take: 1 } },
  });
  if (!sso || sso.domains.length === 0) return null;
  return {
    organizationId,
    organizationName: sso.organization.name,
    issuer: sso.issuer,
    provider: oidcProvider({ id: organizationProviderId(organizationId), name: sso.organization.name, issuer: sso.issuer, clientId: sso.clientId, clientSecret: decryptSecret(sso.encryptedClientSecret) }),
  };
}

/** The organization named by a next-auth path (`/api/auth/signin/sso-<id>`, `/api/auth/callback/sso-<id>`). */
export function organizationIdInAuthPath(pathname: string): string | null {
  const m = /\/api\/auth\/(?:signin|callback)\/([^/?#]+)$/.exec(pathname);
  return m ? organizationIdOfProvider(decodeURIComponent(m[1])) : null;
}

/** Identities from OpenID issuers are keyed by issuer and subject, as OpenID Connect identifies a person. */
export const oidcIdentityProvider = (issuer: string) => `oidc:${new URL(issuer).href}`;
