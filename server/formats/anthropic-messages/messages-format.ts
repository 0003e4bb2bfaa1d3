// The Anthropic Messages API (POST /api/v1/messages) as a gateway wire format: Claude Code and Anthropic's
// SDKs with ANTHROPIC_BASE_URL=http://HOST/api and a Switchboard key. Admission, routing, limits, metering
// and settlement are the chat path's (handle-chat.ts); only parsing and rendering are Anthropic's.
import type { WireFormat } from '@/server/gateway/wire-format';
import { convertMessagesRequest } from './convert-messages-request';
import { loadTokenizer } from './count-tokens-locally';
import { messagesErrorReply } from './messages-errors';
import { parseMessagesRequest } from './messages-request-schema';
import { renderMessagesResponse } from './render-messages-response';
import { createMessagesStreamRenderer, tokenizedAtStart } from './render-messages-stream';

export const anthropicMessagesFormat: WireFormat = {
  id: 'anthropic-messages',
  // `anthropic-version` is accepted whatever its value (the shapes served are 2023-06-01's) and forwarded to Anthropic.
  async parse(json, header) {
    const req = convertMessagesRequest(parseMessagesRequest(json), json, { beta: header('anthropic-beta'), version: header('anthropic-version') });
    // message_start's input_tokens is counted with the tokenizer where that is cheap (render-messages-stream.ts).
    if (req.stream && tokenizedAtStart(req)) await loadTokenizer();
    return req;
  },
  errorReply: messagesErrorReply,
  answerHeaders: (requestId) => ({ 'request-id': requestId }),
  complete: renderMessagesResponse,
  stream: createMessagesStreamRenderer,
};
