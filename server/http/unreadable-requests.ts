// Requests the production server (server/main.ts) cannot hand to Next as they are, because Next (or Node's
// HTTP parser) would answer a client's mistake with a 500 or a bare 400: a path with broken percent-encoding,
// an unparseable form body posted to a page, a request that is not HTTP at all or did not arrive in time.
// Each gets a 4xx with an error body instead (the spec's, or the native format's on its routes).
import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, toErrorBody } from '@/server/errors';
import { errorReplyWithStatus } from './error-reply-for-path';
import { sendNodeJson } from './node-response';
import { replaceNextResponse } from './replace-next-response';
import { pathOfTarget } from './request-target';
import { newRequestId } from './request-id';

/** `%ZZ` and friends: Next's decodeURIComponent throws on them and answers 500. */
export function malformedPathError(pathname: string): AppError | null {
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return new AppError('bad_request', 'The request path has malformed percent-encoding');
  }
}

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)/i;

/**
 * A form posted to a page without a Next-Action header is, for Next, a no-JavaScript server action: it
 * parses the body as a form and answers 500 when that fails (TypeError: Failed to parse body as FormData).
 * For exactly these requests a 500 becomes a 400 with the spec's body. Our pages call their actions with
 * JavaScript (Next-Action header), so what reaches here is a hand-made POST; Next has already logged its
 * error, so a failure of the server's own would still show in the log.
 */
export function unreadableFormAs400(req: IncomingMessage, res: ServerResponse, requestId: string): void {
  if (req.method !== 'POST' || req.headers['next-action'] || !FORM_TYPES.test(String(req.headers['content-type'] ?? ''))) return;
  replaceNextResponse(res, (status) => {
    if (status !== 500) return null;
    const { body } = toErrorBody(new AppError('bad_request', 'The form body could not be read'), requestId);
    return { status: 400, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId }, payload: JSON.stringify(body) };
  });
}

const CLIENT_ERROR_STATUS: Record<string, { status: number; code: 'bad_request' | 'payload_too_large'; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'bad_request', message: 'Request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'bad_request', message: 'The request did not arrive in time' },
};

/**
 * Node's 'clientError': the bytes were not a valid HTTP request, or did not all arrive in time. Node's own answer
 * is a bare "400 Bad Request"; ours has an error body in the shape of the request's path (error-reply-for-path.ts:
 * Anthropic's on /messages, OpenAI's on /responses, the spec's elsewhere), then the connection is closed.
 * - A request whose headers were read (what stalled or broke is its body) already has its response: the answer
 *   goes through it, so the access log records the status sent (it said 200, "aborted", for these 408s), and a
 *   response already under way is not interrupted by a second status line (the socket is closed, as Node does).
 * - Before that there is only the socket. The path is read from the request line when it is in the bytes that
 *   failed (err.rawPacket, the chunk being parsed: for headers over Node's 16 KB limit sent at once, the first
 *   64 KB, request line included). A request line that arrived in an earlier chunk is gone with it, and such an
 *   answer is in the spec's shape whatever the path.
 */
export function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const known = CLIENT_ERROR_STATUS[err.code ?? ''];
  const status = known?.status ?? 400;
  const error = new AppError(known?.code ?? 'bad_request', known?.message ?? 'Malformed HTTP request');
  const res = responseInFlight(socket);
  if (res?.headersSent) return void socket.destroy();
  if (res && !res.req.complete) {
    const assigned = res.getHeader('x-request-id');
    const requestId = typeof assigned === 'string' ? assigned : newRequestId();
    const reply = errorReplyWithStatus(pathOfTarget(res.req.url ?? '/') ?? '/', error, requestId, status);
    return sendNodeJson(res, status, reply.body, requestId, { ...reply.headers, connection: 'close' });
  }
  const requestId = newRequestId();
  const reply = errorReplyWithStatus(pathOfRequestLine(err.rawPacket) ?? '/', error, requestId, status);
  const payload = JSON.stringify(reply.body);
  const extra = Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nx-request-id: ${requestId}\r\n${extra}\r\n${payload}`,
  );
}

/** The response of the request being read on this socket (Node keeps it as `_httpMessage`), if any. */
function responseInFlight(socket: Duplex): ServerResponse | undefined {
  const res = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
  return res instanceof ServerResponse ? res : undefined;
}

/** The path of the request line at the start of `raw`, if it is there. */
function pathOfRequestLine(raw: Buffer | undefined): string | null {
  const line = raw && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\S+) HTTP\/\d\.\d\r?\n/.exec(raw.subarray(0, 16 * 1024).toString('latin1'));
  return line ? pathOfTarget(line[1]) : null;
}
