import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ key_id: string }>(async ({ principal, params }) => {
  await deleteApiKey({ userId: principal.userId, keyId: params.key_id });
  return { deleted: true, id: params.key_id };
});
