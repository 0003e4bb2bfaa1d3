import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { countTokensRequestSchema, messagesRequestSchema } from './messages-request-schema';

const usage = z.object({
  input_tokens: z.number().int().describe('Prompt tokens not read from or written to the cache'),
  cache_creation_input_tokens: z.number().int(),
  cache_read_input_tokens: z.number().int(),
  output_tokens: z.number().int(),
});
const message = z.object({
  id: z.string().describe('Generation id (gen-…), also in the x-generation-id header'),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string().describe('The model name as the request gave it'),
  content: z.array(z.record(z.string(), z.unknown())).describe('thinking, redacted_thinking, text and tool_use blocks, in that order'),
  stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal']),
  stop_sequence: z.string().nullable(),
  usage,
});

const ANTHROPIC_ERRORS =
  'Errors use Anthropic\'s shape, `{"type":"error","error":{"type":"invalid_request_error"|"authentication_error"|"billing_error"|' +
  '"permission_error"|"not_found_error"|"request_too_large"|"rate_limit_error"|"api_error"|"overloaded_error"|"timeout_error","message":"…"},"request_id":"…"}`, ' +
  'with the status listed (402 when credit is short, typed billing_error).';

defineEndpoint({
  method: 'post',
  path: '/messages',
  operationId: 'createMessage',
  stream: true,
  sseDescription: "Sent when `stream` is true: Anthropic's events (message_start, content_block_start/_delta/_stop, message_delta with usage, message_stop; ping while waiting; error for a failure after the stream began).",
  summary: 'Create a message (Anthropic Messages API)',
  description:
    'The Anthropic Messages API, for Claude Code and Anthropic\'s SDKs (`ANTHROPIC_BASE_URL=http://HOST/api`, key as `x-api-key` or ' +
    '`Authorization: Bearer`). `model` is a Switchboard id or Anthropic\'s own name (`claude-sonnet-4-5`, dated ids). To an Anthropic ' +
    'endpoint the body passes unchanged but for the model name and a capped `max_tokens`, with the `anthropic-beta` and ' +
    '`anthropic-version` headers; any other model gets it translated. `stream` defaults to false; with true the answer is ' +
    'text/event-stream in Anthropic\'s order: message_start, content_block_start / content_block_delta (text_delta, thinking_delta, ' +
    'signature_delta, input_json_delta) / content_block_stop per block, message_delta (stop_reason, usage), message_stop; `ping` while ' +
    'waiting; an `error` event for a failure after the stream began. ' + ANTHROPIC_ERRORS,
  tags: ['Anthropic'],
  body: messagesRequestSchema,
  response: message,
  errors: [402, 403, 404, 413, 429, 502, 503],
});

defineEndpoint({
  method: 'post',
  path: '/messages/count_tokens',
  operationId: 'countMessageTokens',
  summary: 'Count the input tokens of a message request (Anthropic Messages API)',
  description:
    'Anthropic\'s count for a model served by Anthropic; otherwise an estimate with the o200k_base tokenizer. Nothing is charged. ' + ANTHROPIC_ERRORS,
  tags: ['Anthropic'],
  body: countTokensRequestSchema,
  response: z.object({ input_tokens: z.number().int() }),
  errors: [403, 404, 429],
});
