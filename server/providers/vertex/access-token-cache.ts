// An OAuth access token held for one provider, refreshed before it expires: Google's service-account
// tokens live an hour, and a request must never go out with one that expires on the way.

export interface AccessToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface AccessTokenCache {
  /** A token valid for a while yet: the cached one, or a fresh one (one fetch shared by concurrent callers). */
  get(): Promise<string>;
  /** Forget the cached token (the upstream refused it with 401): the next get fetches a new one. */
  invalidate(): void;
}

/** Refresh this long before expiry, or a quarter of the token's lifetime when that is shorter (short-lived tokens). */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * `now` is injectable for tests; production uses Date.now, as the auth library does for `expiry_date`.
 * A refresh that fails while the cached token is still valid falls back to it (a blip at the token endpoint
 * does not fail requests for the minutes the old token has left); past expiry the error is thrown.
 */
export function createAccessTokenCache(fetchToken: () => Promise<AccessToken>, now: () => number = () => Date.now()): AccessTokenCache {
  let current: (AccessToken & { refreshAt: number }) | undefined;
  let refreshing: Promise<AccessToken> | undefined;

  const refresh = (): Promise<AccessToken> =>
    (refreshing ??= (async () => {
      try {
        const obtainedAt = now();
        const token = await fetchToken();
        const margin = Math.min(REFRESH_MARGIN_MS, Math.max(0, token.expiresAt - obtainedAt) / 4);
        current = { ...token, refreshAt: token.expiresAt - margin };
        return token;
      } finally {
        refreshing = undefined;
      }
    })());

  return {
    async get() {
      const held = current;
      if (held && now() < held.refreshAt) return held.token;
      try {
        return (await refresh()).token;
      } catch (err) {
        // Still a few seconds of validity left: better than failing the request.
        if (held && current === held && now() < held.expiresAt - 5_000) return held.token;
        throw err;
      }
    },
    invalidate() {
      current = undefined;
    },
  };
}
