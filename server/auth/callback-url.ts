/**
 * Where to send the browser after signing in: only a path on this site ("/device?user_code=…"), never
 * another origin ("//evil.example", "https://…", "/\\evil.example"), so the sign-in page cannot be used
 * as an open redirect.
 */
export function safeCallbackUrl(raw: unknown, fallback = '/'): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f]/.test(raw)) return fallback;
  try {
    const url = new URL(raw, 'http://localhost');
    if (url.origin !== 'http://localhost') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** `/sign-in?callbackUrl=…` and friends. */
export function withCallback(path: string, callbackUrl: string): string {
  return callbackUrl === '/' ? path : `${path}?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}

/** The terms step in front of `callbackUrl`; it passes straight on when the current terms are accepted. */
export function termsStep(callbackUrl: string): string {
  return `/terms?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}
