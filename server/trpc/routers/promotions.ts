import { listActivePromotionGrants } from '@/server/promotions/list-promotion-grants';
import { redeemPromotion, redeemPromotionInput } from '@/server/promotions/redeem-promotion';
import { accountProcedure, router } from '../init';

export const promotionsRouter = router({
  /** Active promotional credit on the active account. */
  list: accountProcedure('billing:read').query(({ ctx }) => listActivePromotionGrants({ accountId: ctx.access.accountId })),
  /** Redeems a code for the active account (the service checks billing:manage on it). */
  redeem: accountProcedure('billing:manage')
    .input(redeemPromotionInput.omit({ account_id: true }))
    .mutation(({ ctx, input }) => redeemPromotion({ userId: ctx.principal.userId, input: { ...input, account_id: ctx.access.accountId } })),
});
