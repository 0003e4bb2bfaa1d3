// Under /api every error is JSON, in the route's shape (error-reply-for-path.ts), but Next answers some
// requests there in its own: a method the route module does not export with a bare 405 (no Allow), a path no
// route matches (/api/v1 itself, a path that names no route once its dot segments are resolved) with its HTML
// 404 page. The production server swaps those answers for ours (replace-next-response.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/server/errors';
import { errorReplyForPath } from './error-reply-for-path';
import { type HeaderOf, type Replacement, replaceNextResponse } from './replace-next-response';
import { allowOfMatchedRoute, ROUTE_METHODS } from './route-methods';

/**
 * Installs the swap on a request Next is about to handle. A method no route handler can export (PROPFIND,
 * TRACE…) is handed to Next as OPTIONS: Next would answer it with a bare 400, or a 500 for TRACE (its Request
 * refuses the method), but OPTIONS it answers on every route with the route's Allow (implemented from the
 * module's exports, without running them). That answer becomes our 405 with the same Allow; the request's
 * method is put back as soon as Next answers (the log names the method the client sent).
 */
export function jsonApiErrors(req: IncomingMessage, res: ServerResponse, requestId: string, pathname: string): void {
  const method = req.method ?? 'GET';
  const render = errorReplyForPath(pathname);
  const reply = (err: AppError): Replacement => {
    const { status, body, headers } = render(err, requestId);
    return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId }, payload: JSON.stringify(body) };
  };
  const methodNotAllowed = (allow: string | undefined) =>
    reply(new AppError('method_not_allowed', `${method} is not supported on ${pathname}${allow ? `; use ${allow}` : ''}`, {}, allow ? { allow } : {}));
  const notFound = () => reply(new AppError('not_found', `No endpoint ${method} ${pathname}. See /docs (or /api/v1/openapi.json) for the API reference.`));

  const unroutable = !ROUTE_METHODS.includes(method);
  if (unroutable) req.method = 'OPTIONS';
  replaceNextResponse(res, (status: number, header: HeaderOf) => {
    const json = String(header('content-type') ?? '').includes('json');
    if (unroutable) req.method = method;
    // An error of our own (a 408, a 413, a 500 from the hand-off) is already JSON in the right shape.
    if (json && status >= 400) return null;
    if (unroutable) {
      if (status === 404) return notFound();
      const allow = status < 300 ? header('allow') : undefined;
      return methodNotAllowed(typeof allow === 'string' ? allow : undefined);
    }
    if (json) return null;
    if (status === 405) return methodNotAllowed(allowOfMatchedRoute(req));
    if (status === 404) return notFound();
    return null;
  });
}
