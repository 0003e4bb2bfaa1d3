// The edges of POST /api/v1/messages/count_tokens: node:http (server/main.ts, before Next, so the gateway's
// 25 MiB body limit applies: Claude Code counts whole conversations) and a Next route handler (next dev).
// Not a generation: nothing is reserved or charged. Answers and errors in Anthropic's shape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorizationHeader, readJsonObject } from '@/server/gateway/admit';
import { clientGone, type CancelSignal } from '@/server/http/cancel-signal';
import { bodyTooLargeError, readNodeBody } from '@/server/http/read-body';
import { newRequestId, requestIdFor } from '@/server/http/request-id';
import { requestTraceOf, routeHandlerTrace, type RequestTrace } from '@/server/observability/request-trace';
import type { Runtime } from '@/server/runtime/runtime';
import { countMessageTokens } from './count-tokens';
import { messagesErrorReply, requestIdHeaders } from './messages-errors';

export const COUNT_TOKENS_PATH = '/api/v1/messages/count_tokens';

interface CountTokensEdge {
  header(name: string): string | undefined;
  readBody(limit: number): Promise<Buffer>;
  signal: CancelSignal;
  /** The request's server span when tracing is on: the call to Anthropic becomes its child. */
  trace?: RequestTrace;
  /** The id server/main.ts gave the request, behind a Next route (gateway/transport.ts). */
  requestId?: string;
}

async function reply(rt: Runtime, edge: CountTokensEdge): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const requestId = edge.requestId ?? newRequestId();
  try {
    const result = await countMessageTokens(rt, {
      authorization: authorizationHeader(edge),
      // The body as /messages reads it: 415 for a Content-Type other than JSON or a Content-Encoding it does
      // not decode, 413 over the limit, 400 for malformed JSON or anything but an object.
      readBody: () => readJsonObject(edge),
      beta: edge.header('anthropic-beta'),
      version: edge.header('anthropic-version'),
      signal: edge.signal,
      trace: edge.trace,
    });
    return { status: 200, body: result, headers: requestIdHeaders(requestId) };
  } catch (err) {
    const { status, body, headers } = messagesErrorReply(err, requestId, 'count_tokens');
    return { status, body, headers: { ...headers, ...requestIdHeaders(requestId) } };
  }
}

export async function handleCountTokensNode(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const out = await reply(rt, {
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    },
    readBody: (limit) => readNodeBody(req, limit),
    signal: clientGone(res),
    trace: requestTraceOf(res),
  });
  const payload = JSON.stringify(out.body);
  res.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...out.headers }).end(payload);
}

export async function handleCountTokens(rt: Runtime, request: Request): Promise<Response> {
  const traced = routeHandlerTrace(rt.tracing, request);
  const out = await reply(rt, {
    header: (name) => request.headers.get(name) ?? undefined,
    async readBody(limit) {
      const buf = Buffer.from(await request.arrayBuffer());
      if (buf.length > limit) throw bodyTooLargeError(limit);
      return buf;
    },
    signal: request.signal,
    trace: traced?.trace,
    requestId: requestIdFor(request),
  });
  traced?.end(out.status, false);
  return Response.json(out.body, { status: out.status, headers: out.headers });
}
