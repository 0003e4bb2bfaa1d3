// Access tokens for a service account from Google's own auth library: the JWT bearer grant (RFC 7523),
// an RS256 assertion signed with the key, exchanged at the token endpoint for a token of the
// cloud-platform scope. When to ask for one is access-token-cache.ts's decision, not the library's.
import { JWT } from 'google-auth-library';
import type { AccessToken } from './access-token-cache';
import { GOOGLE_TOKEN_URL, type ServiceAccount } from './service-account';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

// The library refreshes when a token has less than this left and otherwise hands back its own cached one;
// our cache only asks when it wants a new token, so the library must always fetch.
const ALWAYS_FETCH = 10 * 365 * 24 * 3600_000;

export function createServiceAccountTokenSource(account: ServiceAccount, timeoutMs = 10_000): () => Promise<AccessToken> {
  const jwt = new JWT({
    email: account.client_email,
    key: account.private_key,
    ...(account.private_key_id ? { keyId: account.private_key_id } : {}),
    scopes: [CLOUD_PLATFORM_SCOPE],
    eagerRefreshThresholdMillis: ALWAYS_FETCH,
    // Node's own fetch (undici) rather than the library's node-fetch fallback; a bounded wait per attempt.
    transporterOptions: { fetchImplementation: fetch, timeout: timeoutMs },
  });
  // The library posts to Google's token URL whatever the key says; the key's token_uri is where this
  // account's tokens come from (another universe, a private endpoint, a test fake), so the request goes there.
  if (account.token_uri !== GOOGLE_TOKEN_URL) {
    const tokenUri = new URL(account.token_uri);
    jwt.transporter.interceptors.request.add({
      resolved: async (options) => {
        if (options.url.href === GOOGLE_TOKEN_URL) options.url = tokenUri;
        return options;
      },
    });
  }
  return async () => {
    const credentials = await jwt.authorize();
    if (!credentials.access_token || !credentials.expiry_date) throw new Error('the token endpoint answered without access_token or expires_in');
    return { token: credentials.access_token, expiresAt: credentials.expiry_date };
  };
}
