import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';

const usdPerToken = z.string().describe('USD per token, an exact decimal string (e.g. "0.0000025"), never exponent notation');

/**
 * One model as GET /models lists it and GET /models/{author}/{slug} answers it (server/catalog/models-dto.ts).
 * models-api.integration.test.ts parses every listed model with this schema made strict: a field added to
 * the DTO and not here fails there.
 */
export const modelSchema = z
  .object({
    id: z.string().describe('"author/slug", what `model` names in a chat request'),
    name: z.string(),
    description: z.string(),
    created: z.number().int(),
    context_length: z.number().int(),
    pricing: z.object({
      prompt: usdPerToken,
      completion: usdPerToken,
      input_cache_read: usdPerToken,
      input_cache_write: usdPerToken,
      input_cache_write_1h: usdPerToken.describe('Writes to Anthropic\'s 1-hour cache'),
      request: usdPerToken,
      image: usdPerToken,
    }),
    kind: z.enum(['chat', 'embedding']).describe('`embedding`: served by POST /embeddings only (output_modalities ["embeddings"])'),
    architecture: z.object({ modality: z.string(), input_modalities: z.array(z.string()), output_modalities: z.array(z.string()) }),
    top_provider: z.object({ context_length: z.number().int(), max_completion_tokens: z.number().int(), is_moderated: z.boolean() }),
    supported_parameters: z.array(z.string()),
    supportsReasoning: z.boolean(),
    supportsImages: z.boolean(),
    supportsPdf: z.boolean().describe('Takes PDF documents as {"type":"file"} content parts ("file" in input_modalities)'),
    provider: z.string().describe('The provider of the endpoint the prices are from'),
    aliases: z.array(z.string()),
    available: z.boolean().describe('An endpoint of this model can serve here: its provider is configured and enabled'),
  })
  .meta({ id: 'Model' });

defineEndpoint({
  method: 'get',
  path: '/models',
  operationId: 'listModels',
  summary: 'List models (OpenRouter shape, plus supportsReasoning and supportsImages)',
  tags: ['Models'],
  auth: false,
  response: z.object({ data: z.array(modelSchema) }),
});

defineEndpoint({
  method: 'get',
  path: '/models/{author}/{slug}',
  operationId: 'retrieveModel',
  summary: 'One model, as an item of GET /models (OpenAI\'s models.retrieve)',
  description: 'The id\'s two halves: GET /models/acme/fast. The id percent-encoded as one segment (GET /models/acme%2Ffast, what the OpenAI SDK sends) works too.',
  tags: ['Models'],
  auth: false,
  params: z.object({ author: z.string(), slug: z.string() }),
  response: modelSchema,
  errors: [404],
});
