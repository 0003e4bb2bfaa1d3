import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { clientGone } from '@/server/http/cancel-signal';
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
  // Not an AbortSignal: on Node 20 one keeps what its listeners reach alive until a full collection
  // (server/http/cancel-signal.ts).
  const signal = clientGone(res);
  const trace = requestTraceOf(res);
  const transport: ChatTransport = {
    header: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    },
    readBody: (limit) => readNodeBody(req, limit),
    signal,
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
      const full = writeStreamed(res, text);
      if (full) return drained(full, res);
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

/**
 * Writes a piece of a streamed body with one write(2): framed as an HTTP/1.1 chunk here and handed to the
 * socket as one string. res.write() would hand it four buffers (size, CRLF, text, CRLF), cork the socket
 * and uncork it on the next tick (a writev); per streamed token that machinery cost about as much CPU as
 * the rest of the gateway's work on it. Until the response owns its socket (a pipelined request waiting for
 * the answer before it) or before its headers, res.write() does the buffering. The response's own end()
 * writes the last chunk, as it would after res.write().
 * @returns the stream to wait on for 'drain' when it is full, else null
 */
export function writeStreamed(res: ServerResponse, text: string): Writable | null {
  // An empty chunk would be the body's terminator.
  if (text === '') return null;
  const socket = res.socket;
  if (!socket || !res.headersSent) return res.write(text) ? null : res;
  // HTTP/1.0 clients get no chunked encoding: the body ends with the connection.
  const ok = res.chunkedEncoding ? socket.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`) : socket.write(text);
  return ok ? null : socket;
}

/** Resolves once `stream` drained or the response closed (a client gone needs no more waiting). */
function drained(stream: Writable, res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      res.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    res.on('close', done);
  });
}
