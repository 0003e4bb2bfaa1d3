import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNodeBody } from '@/server/http/read-body';
import { annotateRequest } from '@/server/observability/request-log';
import { requestTraceOf } from '@/server/observability/request-trace';
import type { Runtime } from '@/server/runtime/runtime';
import { handleChat } from './handle-chat';
import type { ChatTransport } from './transport';
import { chatFormat } from './chat-format';
import type { WireFormat } from './wire-format';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/** @param format the wire format of the route (chat completions unless given). */
export function handleChatNode(rt: Runtime, req: IncomingMessage, res: ServerResponse, format: WireFormat = chatFormat): Promise<void> {
  return handleChat(rt, nodeTransport(req, res), format);
}

/** node:http as a ChatTransport, for every gateway use case served on the fast path (chat, embeddings). */
export function nodeTransport(req: IncomingMessage, res: ServerResponse): ChatTransport {
  const controller = new AbortController();
  const trace = requestTraceOf(res);
  // 'close' on the response fires when the socket goes away before we ended: the client disconnected.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const transport: ChatTransport = {
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    },
    readBody: (limit) => readNodeBody(req, limit),
    signal: controller.signal,
    sendJson(status, body, headers) {
      if (res.headersSent) return void res.end();
      const payload = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...headers });
      res.end(payload);
    },
    startStream(headers) {
      res.writeHead(200, { ...SSE_HEADERS, ...headers });
      res.flushHeaders();
    },
    write(text) {
      if (res.writableEnded || res.destroyed) return;
      if (!res.write(text)) return new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    },
    end() {
      if (!res.writableEnded) res.end();
    },
    annotate: trace
      ? (fields) => {
          annotateRequest(res, fields);
          trace.annotate(fields);
        }
      : (fields) => annotateRequest(res, fields),
    trace,
  };
  return transport;
}
