// The chat handler behind a WHATWG Request/Response, for the Next route handler (next dev, serverless).
// Production serves the same handler on the node:http fast path (server/main.ts); what Next serves in
// production (the console playground's chat) and everything under `next dev` comes this way.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { bodyTooLargeError } from '@/server/http/read-body';
import { requestIdFor } from '@/server/http/request-id';
import { routeHandlerTrace } from '@/server/observability/request-trace';
import type { Runtime } from '@/server/runtime/runtime';
import { handleChat } from './handle-chat';
import type { ChatTransport } from './transport';
import { chatFormat } from './chat-format';
import type { WireFormat } from './wire-format';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

export function handleChatRequest(rt: Runtime, request: Request, authenticated?: Principal, format: WireFormat = chatFormat): Promise<Response> {
  return serveWithTransport(rt, request, (transport) => handleChat(rt, transport, format, authenticated));
}

/** Runs a gateway use case (chat, embeddings) behind a WHATWG Request; resolves with its Response once it answers. */
export function serveWithTransport(rt: Pick<Runtime, 'tracing'>, request: Request, handle: (transport: ChatTransport) => Promise<void>): Promise<Response> {
  return new Promise<Response>((resolve) => {
    const encoder = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
    const clientGone = new AbortController();
    request.signal.addEventListener('abort', () => clientGone.abort(), { once: true });
    // The request's server span, when tracing is on: each upstream attempt becomes its child (open-route.ts).
    const traced = routeHandlerTrace(rt.tracing, request);
    let status = 200;
    let answered = false;
    if (traced) clientGone.signal.addEventListener('abort', () => traced.end(status, true), { once: true });
    const transport: ChatTransport = {
      requestId: requestIdFor(request),
      header: (name) => request.headers.get(name) ?? undefined,
      async readBody(limit) {
        const buf = Buffer.from(await request.arrayBuffer());
        if (buf.length > limit) throw bodyTooLargeError(limit);
        return buf;
      },
      signal: clientGone.signal,
      sendJson(replyStatus, body, headers) {
        if (!answered) status = replyStatus; // after a stream started, the stream's 200 stands
        answered = true;
        resolve(Response.json(body, { status, headers }));
        traced?.end(status, false);
      },
      startStream(headers) {
        answered = true;
        const stream = new ReadableStream<Uint8Array>({
          start: (c) => void (controller = c),
          cancel: () => clientGone.abort(),
        });
        resolve(new Response(stream, { status: 200, headers: { ...SSE_HEADERS, ...headers } }));
      },
      write(text) {
        try {
          controller?.enqueue(encoder.encode(text));
        } catch {
          clientGone.abort();
        }
      },
      end() {
        try {
          controller?.close();
        } catch {
          /* already closed */
        }
        traced?.end(status, false);
      },
      annotate: traced ? (fields) => traced.trace.annotate(fields) : undefined,
      trace: traced?.trace,
    };
    void handle(transport);
  });
}
