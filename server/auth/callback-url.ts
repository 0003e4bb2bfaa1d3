/** Where people land after signing up or in when they came from nowhere in particular: the console, never the marketing page. */
export const CONSOLE_HOME = '/overview';

/**
 * Where to send the browser after signing in: only a path on this site ("/device?user_code=…"), never
 * another origin ("//evil.example", "https://…", "/\\evil.example"), so the sign-in page cannot be used
 * as an open redirect. The landing page ("/") is no destination after signing in: it becomes `fallback`.
 */
export function safeCallbackUrl(raw: unknown, fallback = CONSOLE_HOME): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000 || raw === '/') return fallback;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if (/[\u0000-\u001f]/.test(raw)) return fallback;
  try {
    const url = new URL(raw, 'http://localhost');
    if (url.origin !== 'http://localhost') return fallback;
    const path = url.pathname + url.search + url.hash;
    return url.pathname === '/' ? fallback : path;
  } catch {
    return fallback;
  }
}

/** `/sign-in?callbackUrl=…` and friends. */
export function withCallback(path: string, callbackUrl: string): string {
  return callbackUrl === '/' || callbackUrl === CONSOLE_HOME ? path : `${path}?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}

/** The terms step in front of `callbackUrl`; it passes straight on when the current terms are accepted. */
export function termsStep(callbackUrl: string): string {
  return `/terms?callbackUrl=${encodeURIComponent(callbackUrl)}`;
}
