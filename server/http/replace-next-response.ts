// Next answers some requests in its own shapes (a bare 405, its HTML 404 page, a plain-text 500); the
// production server sends its own answer instead of some of them (json-api-errors.ts, unreadable-requests.ts).
// The choice is made when the status is known, i.e. when the headers go out (Node's ServerResponse sends
// implicit headers through writeHead too, so overriding writeHead sees every status), and from then on
// whatever Next writes is dropped while its callbacks still fire. Next's compression middleware wraps
// write/end after these wrappers are in place, so its output (a gzipped HTML page) comes through them too and
// is dropped as well; the Content-Encoding it chose is removed with every other header Next set.
import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface Replacement {
  status: number;
  headers: OutgoingHttpHeaders;
  payload: string;
}

/** Reads a response header Next is about to send (from writeHead's arguments, else from setHeader). */
export type HeaderOf = (name: string) => OutgoingHttpHeader | undefined;

type Callback = (err?: Error | null) => void;
const later = (done: unknown) => {
  if (typeof done === 'function') queueMicrotask(() => (done as Callback)());
};

/**
 * @param replacementFor called once, with the status Next is about to send and its headers: our answer
 * instead, or null to let Next's through untouched. Headers set before this call (x-request-id, the security
 * headers) stay on a replacement; those Next set are removed.
 */
export function replaceNextResponse(res: ServerResponse, replacementFor: (status: number, header: HeaderOf) => Replacement | null): void {
  const ours = new Set(res.getHeaderNames());
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let decided = false;
  let replacement: Replacement | null = null;

  const decide = (status: number, given?: OutgoingHttpHeaders): Replacement | null => {
    if (decided) return replacement;
    decided = true;
    const header: HeaderOf = (name) => headerIn(given, name) ?? res.getHeader(name);
    return (replacement = replacementFor(status, header));
  };
  // A body written before the headers went out (Next's res.end(html) without compression): the headers go
  // first, through the whole writeHead chain, so that the body is never sent after a replacement's headers.
  const headersFirst = () => {
    if (!res.headersSent && decide(res.statusCode)) res.writeHead(res.statusCode);
  };

  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const chosen = decide(statusCode, rest.find((arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && arg !== null && !Array.isArray(arg)));
    if (!chosen) return writeHead(statusCode, ...rest);
    for (const name of res.getHeaderNames()) if (!ours.has(name)) res.removeHeader(name);
    return writeHead(chosen.status, { ...chosen.headers, 'content-length': Buffer.byteLength(chosen.payload) });
  }) as ServerResponse['writeHead'];

  res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    headersFirst();
    if (!replacement) return write(chunk, encoding, cb);
    later(typeof encoding === 'function' ? encoding : cb);
    return true;
  }) as ServerResponse['write'];

  res.end = ((...args: unknown[]) => {
    headersFirst();
    if (!replacement) return end(...args);
    const done = args.find((arg) => typeof arg === 'function');
    if (res.writableEnded) later(done);
    else end(replacement.payload, done);
    return res;
  }) as ServerResponse['end'];
}

function headerIn(headers: OutgoingHttpHeaders | undefined, name: string): OutgoingHttpHeader | undefined {
  if (!headers) return undefined;
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}
