import { revokeAuthToken } from '@/server/auth/auth-tokens';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ id: string }>(async ({ principal, params }) => {
  await revokeAuthToken({ userId: principal.userId, tokenId: params.id });
  return { deleted: true, id: params.id };
});
