import { anthropicMessagesFormat } from '@/server/formats/anthropic-messages/messages-format';
import { handleChatRequest } from '@/server/gateway/route-handler';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

/** The Anthropic Messages API (next dev; production serves it on the fast path, server/gateway/gateway-routes.ts). */
export function POST(request: Request) {
  return handleChatRequest(processRuntime(), request, undefined, anthropicMessagesFormat);
}
