// Responses on the node:http fast path, in the same shapes as the Next route handlers.
import type { ServerResponse } from 'node:http';
import { errorReply } from '@/server/errors';
import type { ErrorReplyRenderer } from './error-reply-for-path';
import { annotateRequest } from '@/server/observability/request-log';

export function sendNodeJson(res: ServerResponse, status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  annotateRequest(res, { request_id: requestId }); // its log line's id (server/main.ts)
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': requestId,
    ...headers,
  });
  res.end(payload);
}

/** @param render the error's shape: the spec's unless given (error-reply-for-path.ts gives a path's own). */
export function sendNodeError(res: ServerResponse, err: unknown, requestId: string, render: ErrorReplyRenderer = errorReply): void {
  const { status, body, headers } = render(err, requestId);
  if (res.headersSent) {
    res.end();
    return;
  }
  sendNodeJson(res, status, body, requestId, headers);
}
