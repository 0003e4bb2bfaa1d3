// The gateway's POST routes on the node:http fast path (server/main.ts and the test servers), each with
// the wire format it speaks. Next's route handlers (app/api/v1/…/route.ts) serve the same for `next dev`.
import { openaiResponsesFormat } from '@/server/formats/openai-responses/openai-responses-format';
import { anthropicMessagesFormat } from '@/server/formats/anthropic-messages/messages-format';
import { chatFormat } from './chat-format';
import type { WireFormat } from './wire-format';

const GATEWAY_ROUTES: ReadonlyMap<string, WireFormat> = new Map<string, WireFormat>([
  ['/api/v1/chat/completions', chatFormat],
  ['/api/v1/responses', openaiResponsesFormat],
  ['/api/v1/messages', anthropicMessagesFormat],
]);

/** The wire format served at this path (a trailing slash allowed), or undefined when it is not a gateway route. */
export function gatewayFormatFor(pathname: string): WireFormat | undefined {
  return GATEWAY_ROUTES.get(pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname);
}
