// Limits the production server (server/main.ts) applies to every request it hands to Next (REST under
// /api/v1, tRPC, next-auth, webhooks, pages and server actions). The gateway's fast path reads its own body
// with its own 25 MiB cap and decodes gzip, deflate and br bodies (read-body.ts, gateway/admit.ts). Stalled
// bodies are Node's: `requestTimeout` answers 408 and closes a connection whose request has not fully arrived
// in time, while responses (streams) may run as long as they need.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/server/errors';
import { bodyTooLargeError, contentCodingsOf, unsupportedCodingError } from './read-body';
import { sendNodeError } from './node-response';

/** Bodies Next receives: JSON, forms and webhook events are small; 1 MiB is Next's own server-action limit. */
export const NEXT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Time a client has to deliver its headers and whole body (not the response: streams run for minutes). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/**
 * Next reads bodies as they come: a compressed one would reach a route handler, a webhook's signature check
 * or a server action as bytes that are not what they claim (gzip read as JSON: "Malformed JSON"; plain JSON
 * labelled gzip: accepted as if the label were not there). Bodies for Next are small, so none may be coded:
 * 415 with Accept-Encoding: identity (RFC 9110 §15.5.16). A request without a body (GET) is not refused.
 */
function unsupportedCoding(req: IncomingMessage): AppError | null {
  const codings = contentCodingsOf(req.headers['content-encoding']);
  if (codings.length === 0) return null;
  const declared = Number(req.headers['content-length']);
  const hasBody = req.headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > 0);
  return hasBody ? unsupportedCodingError(codings.join(', '), 'identity') : null;
}

/**
 * Enforces `limit` on the body while it is read, never after buffering. A declared Content-Length over the
 * limit, or a body with a Content-Encoding (unsupportedCoding), is refused before Next runs: answered at once
 * when the connection stays open, else when the upload ends. A chunked body is counted as the HTTP parser delivers it (by wrapping `req.push`, so Next still
 * reads the stream itself); from the byte that goes over nothing more reaches Next, and the 413 goes out
 * when the upload ends. The rest is always drained unread (requestTimeout bounds that): a socket closed
 * under a client still uploading loses it the answer (EPIPE). Returns false when refused up front.
 */
export function limitBody(req: IncomingMessage, res: ServerResponse, limit: number, requestId: string): boolean {
  const declared = Number(req.headers['content-length']);
  const refusal = unsupportedCoding(req) ?? (Number.isFinite(declared) && declared > limit ? bodyTooLargeError(limit) : null);
  if (refusal) {
    const refuse = () => sendNodeError(res, refusal, requestId);
    if (/\bclose\b/i.test(String(req.headers.connection ?? ''))) req.once('end', refuse);
    else refuse();
    req.resume();
    return false;
  }
  if (Number.isFinite(declared)) return true; // Node's parser never delivers more than declared.
  let size = 0;
  let refused = false;
  const push = req.push.bind(req) as (chunk: unknown, encoding?: BufferEncoding) => boolean;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (!refused && chunk !== null && chunk !== undefined) {
      size += (chunk as Buffer).length;
      refused = size > limit;
    }
    if (!refused) return push(chunk, encoding);
    // Over the limit: whatever reads the body (Next) never sees more of it, and the answer is the 413 (sent
    // with Connection: close, as Next still waits for the body). If Next had answered before reading the
    // body, its answer stands and the request simply ends.
    if (chunk === null) {
      if (res.headersSent) return push(null);
      sendNodeError(res, bodyTooLargeError(limit, { connection: 'close' }), requestId);
    }
    return true; // keep the parser reading: the rest is drained, never buffered
  };
  return true;
}

/**
 * A server action posted from another origin. Next refuses it by throwing (a 500 with an HTML page); it is
 * the caller's 403. The rule is Next's own: the Origin's host must equal X-Forwarded-Host, else Host.
 */
export function isForeignServerAction(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || !req.headers['next-action']) return false;
  const origin = req.headers.origin;
  if (!origin) return false;
  const forwarded = req.headers['x-forwarded-host'];
  const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim() || req.headers.host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export function refuseForeignServerAction(res: ServerResponse, requestId: string): void {
  sendNodeError(res, new AppError('forbidden', 'Server actions are accepted only from this site’s own pages (the Origin header names another site)'), requestId);
}
