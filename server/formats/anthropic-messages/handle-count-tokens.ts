// The edge of POST /api/v1/messages/count_tokens (a Next route handler; not a generation, so not on the
// gateway's fast path): read the body, count, answer in Anthropic's shape.
import { newRequestId } from '@/server/http/request-id';
import { MAX_BODY_BYTES } from '@/server/gateway/chat-request-schema';
import { AppError } from '@/server/errors';
import { authorizationHeader } from '@/server/gateway/admit';
import type { Runtime } from '@/server/runtime/runtime';
import { countMessageTokens } from './count-tokens';
import { messagesErrorReply } from './messages-errors';

export async function handleCountTokens(rt: Runtime, request: Request): Promise<Response> {
  const requestId = newRequestId();
  try {
    const raw = await request.arrayBuffer();
    if (raw.byteLength > MAX_BODY_BYTES) throw new AppError('payload_too_large', `Request body is larger than the limit of ${MAX_BODY_BYTES / 1024 / 1024} MB`);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      throw new AppError('bad_request', 'Malformed JSON in request body');
    }
    const result = await countMessageTokens(rt, {
      authorization: authorizationHeader({ header: (name) => request.headers.get(name) ?? undefined }),
      body,
      beta: request.headers.get('anthropic-beta') ?? undefined,
      version: request.headers.get('anthropic-version') ?? undefined,
      signal: request.signal,
    });
    return Response.json(result, { headers: { 'x-request-id': requestId } });
  } catch (err) {
    const { status, body, headers } = messagesErrorReply(err, requestId, 'count_tokens');
    return Response.json(body, { status, headers: { ...headers, 'x-request-id': requestId } });
  }
}
