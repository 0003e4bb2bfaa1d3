// The request target (RFC 9112 §3.2) made into the origin form every route expects ("/api/v1/credits?x=1"),
// first thing in server/main.ts. Node's parser hands the other forms on as req.url unchanged, and Next then
// answered the absolute form ("http://host/api/v1/…", which a server must accept: §3.2.2) with a 308 to that
// very URL, a foreign host included, and the asterisk form ("OPTIONS *", §3.2.4) with a 500 (it builds a
// URL from "*" and throws).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/server/errors';
import { sendNodeError } from './node-response';
import { ROUTE_METHODS } from './route-methods';

/** `origin` once req.url is a path; `asterisk` for "*"; an AppError (400) for a target that is neither. */
export type RequestTarget = 'origin' | 'asterisk' | AppError;

/** scheme, authority, then path and query (a fragment has no place in a request; it is dropped). */
const ABSOLUTE_FORM = /^(https?):\/\/([^/?#]*)([^#]*)/i;

/**
 * Rewrites an absolute-form target to its path and query, as they were sent (not through the URL parser, which
 * would resolve "%2e%2e" segments the origin form keeps). Its authority takes the place of Host (§3.2.2), which
 * only routing would read: the links the server builds never follow Host unless TRUST_PROXY=1 says a proxy in
 * front sets it (public-origin.ts), and then they must keep following what that proxy set — so the Host the
 * request came with is kept for them as X-Forwarded-Host when the proxy sent none. (An HTTP/1.0 request with
 * neither header did not come through that proxy: its client could have named any Host just as well.)
 */
export function toOriginForm(req: IncomingMessage, trustProxy: boolean): RequestTarget {
  const target = req.url ?? '/';
  if (target.startsWith('/')) return 'origin';
  if (target === '*') return 'asterisk';
  const absolute = ABSOLUTE_FORM.exec(target);
  if (!absolute) return new AppError('bad_request', 'The request target must be a path (/api/v1/…) or an absolute http(s) URL (* only with OPTIONS)');
  const [, scheme, authority, rest] = absolute;
  const host = hostOf(scheme, authority);
  if (!host) return new AppError('bad_request', 'The request target’s host is not a valid host name');
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  const received = req.headers.host;
  if (trustProxy && received && req.headers['x-forwarded-host'] === undefined) req.headers['x-forwarded-host'] = received;
  req.headers.host = host;
  return 'origin';
}

/** The path (without the query) of an origin- or absolute-form target, else null. */
export function pathOfTarget(target: string): string | null {
  const path = target.startsWith('/') ? target : ABSOLUTE_FORM.exec(target)?.[3];
  if (path === undefined) return null;
  const q = path.indexOf('?');
  const pathname = q === -1 ? path : path.slice(0, q);
  return pathname.startsWith('/') ? pathname : `/${pathname}`;
}

/** The authority as a Host value, or null when it is empty, malformed or carries credentials (RFC 9110 §4.2.4). */
function hostOf(scheme: string, authority: string): string | null {
  if (!authority || authority.includes('@')) return null;
  try {
    return new URL(`${scheme.toLowerCase()}://${authority}`).host || null;
  } catch {
    return null;
  }
}

/** The answer to a target that is not (or could not be made) a path: `OPTIONS *` → 204 with Allow, else a 400. */
export function answerOtherTarget(req: IncomingMessage, res: ServerResponse, target: Exclude<RequestTarget, 'origin'>, requestId: string): void {
  if (target === 'asterisk' && req.method === 'OPTIONS') {
    // What the server serves, all routes together.
    res.writeHead(204, { allow: ROUTE_METHODS.join(', '), 'x-request-id': requestId });
    return void res.end();
  }
  const err = target === 'asterisk' ? new AppError('bad_request', `The request target * is for OPTIONS only; ${req.method} needs a path`) : target;
  sendNodeError(res, err, requestId);
}
