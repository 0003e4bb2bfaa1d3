// Microsoft Entra ID access tokens for Azure OpenAI, by the OAuth 2.0 client-credentials grant
// (learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow): POST
// grant_type=client_credentials, client_id, client_secret, scope=https://cognitiveservices.azure.com/.default
// to https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token → {token_type, expires_in, access_token}.
//
// A plain POST rather than @azure/identity's ClientSecretCredential: MSAL (under it) refuses an authority that
// is not https ("authority_uri_insecure") and first fetches the tenant's OpenID metadata and instance
// discovery from the authority host, so it cannot be pointed at a local fake token endpoint, nor at an
// operator's `token_url` (a proxy, a sovereign cloud's full token URL) as given; and it would add MSAL and
// Azure core to the chat path's bundle for one form POST.
//
// The token is cached in this instance (one per provider entry, rebuilt on reload) and refreshed before it
// expires: once a token is in its last REFRESH_MARGIN of life, the next request starts one refresh and keeps
// using the still-valid token; only an expired (or absent) token makes requests wait. Concurrent requests
// share the one refresh in flight, so a burst at the boundary costs one token request.
import { z } from 'zod';
import { AppError } from '@/server/errors';
import { untilAborted, type CancelSignal } from '@/server/http/cancel-signal';

export const AZURE_COGNITIVE_SCOPE = 'https://cognitiveservices.azure.com/.default';

export const entraTokenUrl = (tenantId: string) => `https://login.microsoftonline.com/${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;

// Entra v2 sends expires_in as a number; the v1 endpoint (and some proxies) as a string.
const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().positive(),
});
const tokenErrorSchema = z.looseObject({ error: z.string(), error_codes: z.array(z.number()).optional() });

/** Refresh once this much life is left: 5 minutes, or half the lifetime of a short-lived token. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

export interface EntraTokenSourceOptions {
  /** Names the provider in errors. */
  provider: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** For tests. */
  now?: () => number;
}

export interface EntraTokenSource {
  /** A valid access token; throws AppError('service_unavailable') when none can be had. */
  token(signal: CancelSignal): Promise<string>;
  /** Forget the cached token (Azure answered 401 to it: revoked before its time): the next request fetches one. */
  invalidate(): void;
}

interface CachedToken {
  value: string;
  expiresAt: number;
  refreshAt: number;
}

export function createEntraTokenSource(o: EntraTokenSourceOptions): EntraTokenSource {
  const now = o.now ?? Date.now;
  let cached: CachedToken | null = null;
  let inFlight: Promise<CachedToken> | null = null;

  const refresh = (): Promise<CachedToken> =>
    (inFlight ??= requestToken(o, now).then(
      (token) => {
        cached = token;
        inFlight = null;
        return token;
      },
      (err: unknown) => {
        inFlight = null;
        throw err;
      },
    ));

  return {
    async token(signal) {
      const at = now();
      if (cached && at < cached.expiresAt) {
        // Early refresh in the background: this request goes on with the token it has.
        if (at >= cached.refreshAt) refresh().catch(() => undefined);
        return cached.value;
      }
      // The shared refresh is not tied to this caller's signal (another request may be waiting on it): only
      // this caller stops waiting when it is aborted.
      return (await untilAborted(refresh(), signal)).value;
    },
    invalidate() {
      cached = null;
    },
  };
}

async function requestToken(o: EntraTokenSourceOptions, now: () => number): Promise<CachedToken> {
  const started = now();
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: o.clientSecret, scope: o.scope ?? AZURE_COGNITIVE_SCOPE });
  let res: Response;
  try {
    res = await fetch(o.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw unavailable(o.provider, 'could not reach the Microsoft Entra ID token endpoint');
  }
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    // Only Entra's error code (invalid_client, unauthorized_client…): error_description carries trace ids and
    // timestamps, nothing a client of the gateway needs.
    const error = tokenErrorSchema.safeParse(json);
    throw unavailable(o.provider, `Microsoft Entra ID refused the client credentials (HTTP ${res.status}${error.success ? `, ${error.data.error}` : ''})`);
  }
  const parsed = tokenResponseSchema.safeParse(json);
  if (!parsed.success) throw unavailable(o.provider, 'Microsoft Entra ID sent a token response the gateway cannot read');
  const lifetimeMs = parsed.data.expires_in * 1000;
  // Measured from when the request was sent, so the time it took is not counted as life left.
  const expiresAt = started + lifetimeMs;
  return { value: parsed.data.access_token, expiresAt, refreshAt: expiresAt - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 2) };
}

function unavailable(provider: string, what: string): AppError {
  return new AppError('service_unavailable', `Provider "${provider}": ${what}. The operator must check tenant_id, client_id and client_secret_env.`, { provider, cause: 'entra_token' });
}
