import { apiRoute, parseBody } from '@/server/http/api-route';
import { redeemPromotion, redeemPromotionInput } from '@/server/promotions/redeem-promotion';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(
  async ({ request, principal }) => {
    const input = await parseBody(request, redeemPromotionInput);
    return { data: await redeemPromotion({ userId: principal.userId, input }) };
  },
  { status: 201 },
);
