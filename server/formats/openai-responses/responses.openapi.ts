import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { inputItemsQuerySchema } from './input-items';
import { responsesRequestSchema } from './responses-request-schema';

const outputItem = z.record(z.string(), z.unknown()).describe('An output item: `reasoning` (summary, encrypted_content when `include` asks), `message` (output_text parts) or `function_call` (call_id, name, arguments); `status` is `incomplete` on the item a truncated response ended in');
const response = z.object({
  id: z.string().describe('resp_…; the generation id is gen-… with the same suffix'),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['completed', 'incomplete', 'failed', 'in_progress']),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  incomplete_details: z.object({ reason: z.string() }).nullable().describe('max_output_tokens or content_filter'),
  model: z.string(),
  output: z.array(outputItem),
  store: z.boolean(),
  previous_response_id: z.string().nullable(),
  usage: z.object({
    input_tokens: z.number().int(),
    input_tokens_details: z.object({ cached_tokens: z.number().int() }),
    output_tokens: z.number().int(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
    total_tokens: z.number().int(),
    cost: z.number().describe('Cost of this generation in USD; equals the ledger charge to the micro-dollar'),
  }),
});
const id = z.object({ id: z.string().describe('resp_…') });

defineEndpoint({
  method: 'post',
  path: '/responses',
  operationId: 'createResponse',
  stream: true,
  sseDescription: "Sent when `stream` is true: OpenAI's typed Responses events, each `event: <type>` + `data: {type, sequence_number, …}`, ending with response.completed (or response.incomplete) with usage, or response.failed.",
  summary: 'Create a response (OpenAI Responses API)',
  description:
    'The OpenAI Responses API, for clients such as Codex CLI. `stream` defaults to false. Streamed, the answer is a text/event-stream of ' +
    'typed events (`event: <type>` + `data: {"type", "sequence_number", …}`): response.created, response.in_progress, ' +
    'response.output_item.added/.done, response.content_part.added/.done, response.output_text.delta/.done, ' +
    'response.function_call_arguments.delta/.done, response.reasoning_summary_text.delta, then response.completed (or ' +
    'response.incomplete) with usage, or response.failed for a failure after the stream began. `store` (default true) keeps the ' +
    'response 30 days for the calling account; `previous_response_id` continues a kept one. With `store: false` reasoning ' +
    'round-trips through `encrypted_content` (ask for it with `include: ["reasoning.encrypted_content"]`). OpenAI models are called ' +
    'through OpenAI\'s Responses API with the body nearly unchanged; other models are translated (function tools only). Errors are ' +
    'OpenAI\'s shape: {"error": {"message", "type", "param", "code"}}. `background: true` and `conversation` are not supported (a 400 naming them); ' +
    '`tool_choice` {"type": "allowed_tools", "mode", "tools"} limits a translated model to the allowed function and custom tools with `mode`.',
  tags: ['Chat'],
  body: responsesRequestSchema,
  response,
  errors: [402, 403, 404, 413, 429, 502, 503],
});

defineEndpoint({
  method: 'get',
  path: '/responses/{id}',
  operationId: 'retrieveResponse',
  summary: 'Retrieve a stored response',
  description: 'A response created with `store: true` by the calling account, within 30 days; 404 otherwise (OpenAI\'s error shape).',
  tags: ['Chat'],
  params: id,
  response,
  errors: [404],
});

defineEndpoint({
  method: 'delete',
  path: '/responses/{id}',
  operationId: 'deleteResponse',
  summary: 'Delete a stored response',
  tags: ['Chat'],
  params: id,
  response: z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }),
  errors: [404],
});

defineEndpoint({
  method: 'get',
  path: '/responses/{id}/input_items',
  operationId: 'listInputItems',
  summary: "List a stored response's input items",
  description:
    'The items a response created with `store: true` was generated from, as OpenAI lists them: with `previous_response_id`, the ' +
    "previous responses' input and output items first, then the request's own input (`instructions` are not an item). Every item has " +
    'an id (items sent without one get `msg_in<n>_…`, `fc_in<n>_…`…, the same in the listings of its continuations); a message\'s text ' +
    'is given as parts. A cursor page, the latest item first unless `order=asc`; `after` (and `before`) take an item id, `limit` ' +
    "1–100 (default 20). The same access as GET /responses/{id}: 404 for another account's (or member's) response.",
  tags: ['Chat'],
  params: id,
  query: inputItemsQuerySchema,
  response: z.object({
    object: z.literal('list'),
    data: z.array(z.record(z.string(), z.unknown()).describe('An item: message, function_call, function_call_output, reasoning, custom_tool_call…, with its id')),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  }),
  errors: [404],
});
