import { revokeAuthToken } from '@/server/auth/auth-tokens';
import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const { userId } = await authorizeUser(principal, 'me');
  await revokeAuthToken({ userId, tokenId: params.id });
  return { deleted: true, id: params.id };
});
