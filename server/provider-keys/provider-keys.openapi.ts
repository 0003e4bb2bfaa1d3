import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { setProviderKeyInput } from './provider-key-dto';

const providerKeySchema = z
  .object({
    provider: z.string().describe('A provider id of this server’s routing table'),
    hint: z.string().describe('First and last characters of the key (sk-…9f3c); the key itself is never returned'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'ProviderKey' });

const tags = ['Provider keys'];
const owners = { organizations: 'the organization (owners and admins)', users: 'your personal account (`id`: me or your user id)' } as const;

for (const scope of ['organizations', 'users'] as const) {
  const params = z.object({ id: z.string() });
  defineEndpoint({
    method: 'get',
    path: `/${scope}/{id}/provider-keys`,
    summary: `Own provider keys of ${owners[scope]}, masked`,
    tags,
    params,
    response: z.object({ data: z.array(providerKeySchema) }),
    errors: [403, 404],
  });
  defineEndpoint({
    method: 'put',
    path: `/${scope}/{id}/provider-keys/{provider}`,
    summary: `Store or replace the own key of ${owners[scope]} for one provider`,
    description:
      'Requests of this account to that provider then use this key (bring your own key). Encrypted at rest (AES-256-GCM), never returned or logged. ' +
      '`provider` must be a provider id of this server whose upstream takes an API key (openai, anthropic, gemini, mistral, xai, groq, openrouter, deepseek, OpenAI-compatible servers…); ' +
      'bedrock, vertex and azure-openai providers are refused (400): they authenticate with cloud credentials, not one key. ' +
      'On PostgreSQL without ENCRYPTION_KEY the server cannot store keys (400).',
    tags,
    params: params.extend({ provider: z.string().describe('Provider id, e.g. openai') }),
    body: setProviderKeyInput,
    response: z.object({ data: providerKeySchema }),
    errors: [403, 404],
  });
  defineEndpoint({
    method: 'delete',
    path: `/${scope}/{id}/provider-keys/{provider}`,
    summary: `Delete the own key of ${owners[scope]} for one provider`,
    description: 'Requests to that provider go back to the server’s own keys.',
    tags,
    params: params.extend({ provider: z.string() }),
    response: z.object({ deleted: z.literal(true), provider: z.string() }),
    errors: [403, 404],
  });
}
