// The POST routes the node:http server answers itself, before Next (server/main.ts, and the test servers
// test/gateway-harness.ts and test/api-server.ts): the generation routes with their wire formats, the
// embeddings route, and count_tokens (not a generation, but Claude Code counts whole conversations: the
// gateway's body limit applies, not Next's 1 MiB). Next's route handlers serve the same paths for `next dev`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleEmbeddingsNode, isEmbeddingsPath } from '@/server/embeddings/embeddings-transports';
import { COUNT_TOKENS_PATH, handleCountTokensNode } from '@/server/formats/anthropic-messages/handle-count-tokens';
import { gatewayFormatFor } from '@/server/gateway/gateway-routes';
import { handleChatNode } from '@/server/gateway/node-handler';
import type { Runtime } from '@/server/runtime/runtime';

export type FastPathHandler = (rt: Runtime, req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The handler for POST at this path, or undefined when Next serves it. */
export function fastPathHandlerFor(pathname: string): FastPathHandler | undefined {
  const format = gatewayFormatFor(pathname);
  if (format) return (rt, req, res) => handleChatNode(rt, req, res, format);
  if (isEmbeddingsPath(pathname)) return handleEmbeddingsNode;
  if (pathname === COUNT_TOKENS_PATH) return handleCountTokensNode;
  return undefined;
}
