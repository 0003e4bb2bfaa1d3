// Next answers a method a route does not export with a bare 405. Under /api the spec wants its JSON error
// body on every error, so the production server swaps that body for ours. (Node's ServerResponse sends
// implicit headers through writeHead too, so overriding writeHead sees every status.)
import type { ServerResponse } from 'node:http';
import { AppError, toErrorBody } from '@/server/errors';

export function jsonMethodNotAllowed(res: ServerResponse, requestId: string, method: string, pathname: string): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  let replaced = false;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const type = String(res.getHeader('content-type') ?? '');
    if (statusCode !== 405 || type.includes('json') || replaced) return writeHead(statusCode, ...rest);
    replaced = true;
    const allow = res.getHeader('allow');
    const { body } = toErrorBody(new AppError('method_not_allowed', `${method} is not supported on ${pathname}${allow ? `; use ${allow}` : ''}`), requestId);
    const payload = JSON.stringify(body);
    res.removeHeader('transfer-encoding');
    res.removeHeader('vary');
    writeHead(405, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'x-request-id': requestId });
    // Our body goes out now: Next usually ends a 405 with a bare res.end(), which is what called us
    // (implicit headers) and which then completes the response. Anything Next writes later is dropped;
    // callbacks still fire because Next waits on them.
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    write(payload);
    res.write = ((_chunk: unknown, enc?: unknown, cb?: unknown) => {
      const done = typeof enc === 'function' ? enc : cb;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as ServerResponse['write'];
    res.end = ((...args: unknown[]) => end(args.find((a) => typeof a === 'function'))) as ServerResponse['end'];
    return res;
  }) as ServerResponse['writeHead'];
}

const ROUTE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A method no route handler can export (PROPFIND, TRACE…): Next answers it with a bare 400; under /api it is our 405. */
export function isUnroutableMethod(method: string | undefined): boolean {
  return !ROUTE_METHODS.has(method ?? 'GET');
}

export function unroutableMethodError(method: string | undefined, pathname: string): AppError {
  return new AppError('method_not_allowed', `${method} is not supported on ${pathname}`);
}
