import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { listActivePromotionGrants } from '@/server/promotions/list-promotion-grants';

export const dynamic = 'force-dynamic';

/** Active promotional credit on the caller's personal account. */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  return { data: await listActivePromotionGrants({ accountId: user.personalAccountId }) };
});
