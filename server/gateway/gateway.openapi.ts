import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { chatRequestSchema } from './chat-request-schema';

const usage = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int().describe('Includes reasoning tokens'),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int(), cache_write_tokens: z.number().int() }),
  completion_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  cost: z.number().describe('Cost of this generation in USD; equals the ledger charge to the micro-dollar'),
});
const toolCall = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) });
const completion = z.object({
  id: z.string().describe('Generation id (gen-…)'),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  provider: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal('assistant'),
        content: z.string().nullable(),
        tool_calls: z.array(toolCall).optional(),
        reasoning: z.string().optional(),
        reasoning_details: z.array(z.record(z.string(), z.unknown())).optional().describe('Send back on later turns to keep the reasoning trace'),
      }),
      finish_reason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'error']),
    }),
  ),
  usage,
});

defineEndpoint({
  method: 'post',
  path: '/chat/completions',
  summary: 'Create a chat completion (OpenAI-compatible)',
  description:
    'Routes `model` ("provider/model-name") to its provider. `stream` defaults to true: the answer is a text/event-stream of ' +
    '`data: <chat.completion.chunk>` events (same `id` on every chunk, `delta.role` on the first, `delta.content` / `delta.reasoning` / ' +
    '`delta.reasoning_details` / `delta.tool_calls` as generated), a final chunk with `finish_reason` and `usage` (with `cost`), then ' +
    '`data: [DONE]`. A failure after the stream began is a chunk with `finish_reason: "error"` and `error.code` one of ' +
    'context_length_exceeded, content_filter, rate_limit, server_error. Comment lines (`: keep-alive`) may appear while waiting. ' +
    'Optional headers HTTP-Referer, X-Title and X-Task-ID are recorded with the usage.',
  tags: ['Chat'],
  body: chatRequestSchema,
  response: completion,
  errors: [402, 403, 404, 413, 429, 502, 503],
});

defineEndpoint({
  method: 'get',
  path: '/models',
  summary: 'List models (OpenRouter shape, plus supportsReasoning and supportsImages)',
  tags: ['Models'],
  auth: false,
  response: z.object({
    data: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        context_length: z.number().int(),
        pricing: z.object({ prompt: z.string(), completion: z.string(), input_cache_read: z.string(), input_cache_write: z.string() }).describe('USD per token'),
        kind: z.enum(['chat', 'embedding']).describe('`embedding`: served by POST /embeddings only (output_modalities ["embeddings"])'),
        architecture: z.object({ input_modalities: z.array(z.string()), output_modalities: z.array(z.string()) }),
        supported_parameters: z.array(z.string()),
        supportsReasoning: z.boolean(),
        supportsImages: z.boolean(),
      }),
    ),
  }),
});
