// Security headers on everything the production server hands to Next (pages, route handlers, static files).
// Set per request in server/main.ts rather than in next.config.mjs, whose headers are fixed at build time:
// HSTS depends on PUBLIC_URL / TRUST_PROXY, which are read at run time.
//
// The Content-Security-Policy allows inline scripts and styles: Next's App Router streams its payload in
// inline <script> tags and React sets style attributes (charts, progress bars); nonces would force every page
// to render per request. What it does forbid is what matters here: framing (clickjacking the console),
// plugins, <base> rewriting, and loading scripts, styles or connections from any other origin. Checkout and
// OAuth leave the site by navigation, which the policy does not restrict.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { servedOverHttps } from './public-origin';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API reference (/docs) renders with Scalar's bundle, which compiles code at run time (`new Function`):
 * that page alone may eval. It shows only our own OpenAPI document — no account data, no forms.
 */
export const DOCS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("script-src 'self' 'unsafe-inline'", "script-src 'self' 'unsafe-inline' 'unsafe-eval'");

/** One year; no includeSubDomains or preload: those commit every other host of the operator's domain. */
const HSTS = 'max-age=31536000';

export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  const pathname = (req.url ?? '/').split('?')[0];
  res.setHeader('content-security-policy', pathname === '/docs' || pathname === '/docs/' ? DOCS_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
  res.setHeader('x-frame-options', 'DENY');
  const requestHeaders = { get: (name: string) => [req.headers[name]].flat()[0] ?? null };
  if (servedOverHttps(requestHeaders)) res.setHeader('strict-transport-security', HSTS);
}
