import { apiRoute, parseBody } from '@/server/http/api-route';
import { accountWithinKeyScope } from '@/server/http/authorize';
import { redeemPromotion, redeemPromotionInput } from '@/server/promotions/redeem-promotion';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(
  async ({ request, principal }) => {
    const input = await parseBody(request, redeemPromotionInput);
    const accountId = await accountWithinKeyScope(principal, input.account_id);
    return { data: await redeemPromotion({ userId: principal.userId, input: { ...input, account_id: accountId } }) };
  },
  { status: 201 },
);
