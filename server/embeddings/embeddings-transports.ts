// The embeddings handler on both transports: node:http (server/main.ts's fast path, the test servers) and
// a WHATWG Request (app/api/v1/embeddings/route.ts, for `next dev`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeTransport } from '@/server/gateway/node-handler';
import { serveWithTransport } from '@/server/gateway/route-handler';
import type { Runtime } from '@/server/runtime/runtime';
import { handleEmbeddings } from './handle-embeddings';

export const EMBEDDINGS_PATH = '/api/v1/embeddings';

/** Whether a request path is the embeddings route (a trailing slash allowed, as for the chat routes). */
export const isEmbeddingsPath = (pathname: string) => pathname === EMBEDDINGS_PATH || pathname === `${EMBEDDINGS_PATH}/`;

export function handleEmbeddingsNode(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return handleEmbeddings(rt, nodeTransport(req, res));
}

export function handleEmbeddingsRequest(rt: Runtime, request: Request): Promise<Response> {
  return serveWithTransport(rt, request, (transport) => handleEmbeddings(rt, transport));
}
