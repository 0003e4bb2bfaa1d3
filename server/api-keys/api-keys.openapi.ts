import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { createApiKeyInput } from './create-api-key';

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    hint: z.string().describe('Recognisable fragment, e.g. sk-sb-v1-AbC…x9Z; the secret itself is never shown again'),
    account_id: z.string().describe('Personal account or organization the key bills to'),
    user_id: z.string(),
    credit_limit: z.number().nullable().describe('USD per window; null = no cap'),
    limit_reset: z.enum(['never', 'daily', 'weekly', 'monthly']),
    usage_in_window: z.number(),
    usage_total: z.number(),
    allowed_models: z.array(z.string()).describe('Empty = every model'),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'ApiKey' });

defineEndpoint({
  method: 'get',
  path: '/api-keys',
  summary: 'List your API keys',
  description: "Called with an API key created for an organization: that organization's keys only.",
  tags: ['API keys'],
  response: z.object({ data: z.array(apiKeySchema) }),
});
defineEndpoint({
  method: 'post',
  path: '/api-keys',
  summary: 'Create an API key (the secret is in this response only)',
  description: 'Called with an API key created for an organization, the new key belongs to that organization; naming another account_id is a 403.',
  tags: ['API keys'],
  body: createApiKeyInput,
  status: 201,
  response: z.object({ key: z.string().describe('The secret, shown once'), data: apiKeySchema }),
  errors: [403, 404],
});
defineEndpoint({
  method: 'delete',
  path: '/api-keys/{key_id}',
  summary: 'Delete an API key (refused from the very next request)',
  tags: ['API keys'],
  params: z.object({ key_id: z.string() }),
  response: z.object({ deleted: z.literal(true), id: z.string() }),
  errors: [403, 404],
});
