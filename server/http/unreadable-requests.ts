// Requests the production server (server/main.ts) cannot hand to Next as they are, because Next (or Node's
// HTTP parser) would answer a client's mistake with a 500 or a bare 400: a path with broken percent-encoding,
// an unparseable form body posted to a page, a request that is not HTTP at all. Each gets a 4xx with the
// spec's error body instead.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, toErrorBody } from '@/server/errors';
import { replaceNextResponse } from './replace-next-response';
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
 * Node's 'clientError': the bytes were not a valid HTTP request (or did not arrive in time). Node's own
 * answer is a bare "400 Bad Request"; this one carries the spec's body, then closes the connection.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const known = CLIENT_ERROR_STATUS[err.code ?? ''];
  const status = known?.status ?? 400;
  const requestId = newRequestId();
  const { body } = toErrorBody(new AppError(known?.code ?? 'bad_request', known?.message ?? 'Malformed HTTP request'), requestId);
  body.error.code = status;
  const payload = JSON.stringify(body);
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nx-request-id: ${requestId}\r\n\r\n${payload}`,
  );
}
