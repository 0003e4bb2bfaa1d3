import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { apiRoute } from '@/server/http/api-route';
import { boundOrganizationOf } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ key_id: string }>(async ({ principal, params }) => {
  await deleteApiKey({ userId: principal.userId, keyId: params.key_id, withinAccountId: await boundOrganizationOf(principal) });
  return { deleted: true, id: params.key_id };
});
