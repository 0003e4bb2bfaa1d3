// The numbers and names every part of browser-session tracking agrees on (next-auth's cookie, the per-request
// check, the Account settings list).

/** next-auth's JWT lifetime: a row not seen for this long belongs to a cookie that has expired. */
export const BROWSER_SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/** lastSeenAt is written at most this often per session: a console page makes many requests a minute. */
export const LAST_SEEN_THROTTLE_MS = 5 * 60_000;

/**
 * Cookies issued before browser sessions were tracked carry no `sid`. Rather than sign everyone out on deploy,
 * each such cookie is tied to one row per user, created on its first request: "signed in before session
 * tracking". A per-cookie row is not possible — server components cannot rewrite the cookie, so a fresh id
 * would be minted (and orphaned) on every page load. Signing that row out ends every such cookie of the user;
 * signing in again gets a row of its own.
 */
export function legacyBrowserSessionId(userId: string): string {
  return `legacy_${userId}`;
}

/** What the edge knows of the browser (audit-actors.ts clientOf: X-Forwarded-For only as TRUST_PROXY allows). */
export interface BrowserClient {
  ip?: string;
  userAgent?: string;
}
