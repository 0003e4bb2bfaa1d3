import { createApiKey, createApiKeyInput } from '@/server/api-keys/create-api-key';
import { listApiKeys } from '@/server/api-keys/list-api-keys';
import { apiRoute, parseBody } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(async ({ principal }) => ({ data: await listApiKeys({ userId: principal.userId }) }));

export const POST = apiRoute(
  async ({ request, principal }) => {
    const input = await parseBody(request, createApiKeyInput);
    const { key, apiKey } = await createApiKey({ userId: principal.userId, input });
    // The only time the secret is ever returned.
    return { key, data: apiKey };
  },
  { status: 201 },
);
