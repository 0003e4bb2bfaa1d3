import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { updateApiKey, updateApiKeyInput } from '@/server/api-keys/update-api-key';
import { apiRoute, parseBody } from '@/server/http/api-route';
import { boundOrganizationOf } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

export const PATCH = apiRoute<{ key_id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, updateApiKeyInput);
  return { data: await updateApiKey({ userId: principal.userId, keyId: params.key_id, withinAccountId: await boundOrganizationOf(principal), input }) };
});

export const DELETE = apiRoute<{ key_id: string }>(async ({ principal, params }) => {
  await deleteApiKey({ userId: principal.userId, keyId: params.key_id, withinAccountId: await boundOrganizationOf(principal) });
  return { deleted: true, id: params.key_id };
});
