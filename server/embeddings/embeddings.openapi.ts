import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { embeddingsRequestSchema } from './embeddings-request-schema';

const embeddingsResponse = z.object({
  object: z.literal('list'),
  data: z.array(
    z.object({
      object: z.literal('embedding'),
      index: z.number().int().describe('Position of the input'),
      embedding: z.union([z.array(z.number()), z.string()]).describe('Floats, or with `encoding_format: "base64"` the base64 of little-endian float32 values'),
    }),
  ),
  model: z.string(),
  provider: z.string().describe('The provider that served'),
  id: z.string().describe('Generation id (gen-…), also in the x-generation-id header; GET /generation?id=… returns its usage record'),
  usage: z.object({
    prompt_tokens: z.number().int().describe("Input tokens as the provider counted them (Gemini reports none: estimated at 4 UTF-8 bytes a token)"),
    total_tokens: z.number().int(),
    cost: z.number().describe('Cost in USD (input tokens × the input price); equals the ledger charge to the micro-dollar'),
  }),
});

defineEndpoint({
  method: 'post',
  path: '/embeddings',
  summary: 'Create embeddings (OpenAI-compatible)',
  description:
    'For models with `kind: "embedding"` in GET /models (OpenAI text-embedding-3-*, Google gemini-embedding-001, and operators\' ' +
    'OpenAI-compatible embedding models); a chat model is a 400, as is an embedding model on the chat routes. `input` is a string, an ' +
    'array of up to 2048 strings, or token ids (OpenAI-shaped endpoints only); none may be empty. Billed by input tokens. ' +
    'Provider keys fail over on 429 and errors before the answer, as for chat completions.',
  tags: ['Embeddings'],
  body: embeddingsRequestSchema,
  response: embeddingsResponse,
  errors: [402, 403, 404, 413, 429, 502, 503],
});
