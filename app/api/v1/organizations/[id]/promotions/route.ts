import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { listActivePromotionGrants } from '@/server/promotions/list-promotion-grants';

export const dynamic = 'force-dynamic';

/** Active promotional credit on the organization's account (billing:read). */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'billing:read');
  return { data: await listActivePromotionGrants({ accountId: access.accountId }) };
});
