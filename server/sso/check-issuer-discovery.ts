// Before an organization's issuer is stored, its discovery document must answer and name the same issuer, so
// an owner learns about a typo at once rather than from a failed sign-in (next-auth checks the same at each
// sign-in: oauth4webapi's processDiscoveryResponse). The document is not reflected back (a URL an owner types
// is fetched by the server): the answer says whether it is an OpenID issuer, and which issuer it names.
import { z } from 'zod';
import { AppError } from '@/server/errors';

const discoverySchema = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  userinfo_endpoint: z.string().url(),
});

const MAX_BYTES = 256 * 1024;

/** `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4: without a trailing slash). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** Normalised as oauth4webapi compares issuers (URL href). */
export const sameIssuer = (a: string, b: string) => new URL(a).href === new URL(b).href;

/** The issuer as its discovery document spells it; a 400 when it is not an OpenID issuer named `issuer`. */
export async function checkIssuerDiscovery(issuer: string): Promise<string> {
  const refused = (why: string) => new AppError('bad_request', `${issuer} is not usable as an OpenID Connect issuer: ${why}`, { issuer });
  let text: string;
  try {
    const res = await fetch(discoveryUrl(issuer), { redirect: 'manual', signal: AbortSignal.timeout(5_000), headers: { accept: 'application/json' } });
    if (res.status !== 200) throw refused(`${discoveryUrl(issuer)} did not answer with a discovery document`);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_BYTES) throw refused('its discovery document is too large');
    text = await res.text();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw refused(`${discoveryUrl(issuer)} could not be reached`);
  }
  if (text.length > MAX_BYTES) throw refused('its discovery document is too large');
  let parsed: z.infer<typeof discoverySchema>;
  try {
    parsed = discoverySchema.parse(JSON.parse(text));
  } catch {
    throw refused('its discovery document lacks issuer, authorization, token, userinfo or JWKS endpoints');
  }
  if (!sameIssuer(parsed.issuer, issuer)) throw refused(`its discovery document names another issuer (${parsed.issuer})`);
  return parsed.issuer;
}
