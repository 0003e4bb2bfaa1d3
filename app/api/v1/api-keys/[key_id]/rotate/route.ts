import { rotateApiKey, rotateApiKeyInput } from '@/server/api-keys/rotate-api-key';
import { apiRoute, parseBody } from '@/server/http/api-route';
import { boundOrganizationOf } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ key_id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, rotateApiKeyInput);
  const { key, apiKey } = await rotateApiKey({ userId: principal.userId, keyId: params.key_id, withinAccountId: await boundOrganizationOf(principal), input });
  // The only time the new secret is ever returned.
  return { key, data: apiKey };
});
