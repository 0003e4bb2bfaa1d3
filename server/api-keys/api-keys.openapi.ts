import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { createApiKeyInput } from './create-api-key';
import { rotateApiKeyInput } from './rotate-api-key';
import { updateApiKeyInput } from './update-api-key';

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    hint: z.string().describe('Recognisable fragment, e.g. sk-sb-v1-AbC…x9Z; the secret itself is never shown again'),
    account_id: z.string().describe('Personal account or organization the key bills to'),
    user_id: z.string(),
    credit_limit: z.number().nullable().describe('USD per window; null = no cap'),
    limit_reset: z.enum(['never', 'daily', 'weekly', 'monthly']),
    usage_in_window: z.number().describe('USD spent in the current window (with a credit limit, plus what requests in flight hold); 0 once the window rolled over'),
    usage_total: z.number(),
    allowed_models: z.array(z.string()).describe('Empty = every model'),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
    disabled: z.boolean().describe('A disabled key is refused (403) until enabled again'),
    disabled_at: z.string().nullable(),
    rate_limit_rpm: z.number().int().nullable().describe('Requests per minute; null = the server default (RATE_LIMIT_RPM)'),
    rate_limit_tpm: z.number().int().nullable().describe('Tokens per minute; null = no token limit'),
    previous_key: z
      .object({ hint: z.string(), expires_at: z.string().describe('When the old secret stops working') })
      .nullable()
      .describe('After a rotation with a grace period: the old secret, still accepted until expires_at; null otherwise'),
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
  method: 'patch',
  path: '/api-keys/{key_id}',
  summary: 'Change an API key: name, disabled, credit limit and reset, expiry, allowed models, rate limits',
  description:
    'Only the fields sent change; null clears credit_limit, expires_at or a rate limit. Who may: the key’s creator, or an owner/admin of the organization it bills to (as for deletion). ' +
    'A disabled key is refused with 403 on every endpoint until enabled again. The spend of the current window is kept when the limit or its reset changes.',
  tags: ['API keys'],
  params: z.object({ key_id: z.string() }),
  body: updateApiKeyInput,
  response: z.object({ data: apiKeySchema }),
  errors: [403, 404],
});
defineEndpoint({
  method: 'post',
  path: '/api-keys/{key_id}/rotate',
  summary: 'Rotate an API key: a new secret (in this response only); the old one revoked at once or after a grace period',
  description:
    'The key keeps its id, settings, limits, spend window and usage; only the secret changes. grace_period_seconds 0 (the default): the old secret is refused from the very next request. ' +
    'Otherwise both secrets work until the grace period ends (at most 30 days), sharing the key’s limits; rotating again ends an earlier grace period at once. Who may: as for PATCH.',
  tags: ['API keys'],
  params: z.object({ key_id: z.string() }),
  body: rotateApiKeyInput,
  response: z.object({ key: z.string().describe('The new secret, shown once'), data: apiKeySchema }),
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

defineEndpoint({
  method: 'get',
  path: '/key',
  operationId: 'getCurrentKey',
  summary: 'The calling API key: usage, limit, rate limit (OpenRouter’s shape)',
  description:
    'usage: USD the key spent, all time. limit: its credit limit (null: none). limit_remaining: limit minus the spend in the current window. ' +
    'is_free_tier: the key’s account never bought credit. rate_limit: the key’s requests per minute, or the server default. ' +
    'Called with an account token instead of an API key: 400.',
  tags: ['API keys'],
  response: z.object({
    data: z.object({
      label: z.string().describe('The key’s display hint, e.g. sk-sb-v1-AbC…x9Z'),
      usage: z.number().describe('USD spent by the key, all time'),
      limit: z.number().nullable().describe('Credit limit in USD per window; null = none'),
      limit_remaining: z.number().nullable().describe('USD left in the current window; null without a limit'),
      limit_reset: z.enum(['daily', 'weekly', 'monthly']).nullable().describe('When the window restarts (UTC); null = never'),
      expires_at: z.string().nullable(),
      is_free_tier: z.boolean().describe('The account never bought credit'),
      rate_limit: z.object({ requests: z.number().int(), interval: z.literal('1m') }),
    }),
  }),
});
