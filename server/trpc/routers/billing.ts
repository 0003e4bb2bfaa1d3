// Credits and payments of the active account, through the services behind /users/{id}/… and
// /organizations/{id}/…: reading needs billing:read, spending billing:manage (a personal account's owner
// has both). Checkout and card setup return the provider's hosted page (Stripe's, or the sandbox's).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { getAutoTopUp, updateAutoTopUp } from '@/server/billing/auto-top-up-settings';
import { autoTopUpInput, checkoutInput, listPaymentsQuery, purchaseInput } from '@/server/billing/billing-inputs';
import { createCreditCheckout } from '@/server/billing/create-credit-checkout';
import { getPayment } from '@/server/billing/get-payment';
import { listPayments } from '@/server/billing/list-payments';
import { createSetupSession, getDefaultPaymentMethod } from '@/server/billing/payment-methods';
import { purchaseCredits } from '@/server/billing/purchase-credits';
import { getBalanceOrThrow, toBalanceDto, toMemberBalanceDto } from '@/server/ledger/balance';
import { creditHistoryQuery, getCreditHistory } from '@/server/ledger/get-credit-history';
import type { AccountAccess } from '@/server/organizations/assert-account-access';
import { roleAllows } from '@/server/organizations/permissions';
import { accountProcedure, originOf, router } from '../init';

/** The REST endpoint that adds a card, named in the services' "no saved payment method" errors. */
const setupPath = (a: AccountAccess) =>
  a.kind === 'PERSONAL' ? '/api/v1/users/me/payment-method/setup-session' : `/api/v1/organizations/${a.accountId}/payment-method/setup-session`;

export const billingRouter = router({
  /** Every member may see whether credit remains; the amounts need billing:read (`amounts` says which). */
  balance: accountProcedure('usage:read-own').query(async ({ ctx }) => {
    const balance = await getBalanceOrThrow(ctx.access.accountId);
    return roleAllows(ctx.access.role, 'billing:read')
      ? { amounts: true as const, ...toBalanceDto(balance) }
      : { amounts: false as const, ...toMemberBalanceDto(balance) };
  }),
  /** The ledger as a statement with the running balance (GET …/credit-history). */
  creditHistory: accountProcedure('billing:read')
    .input(creditHistoryQuery)
    .query(({ ctx, input }) => getCreditHistory({ accountId: ctx.access.accountId, query: input })),
  paymentMethod: accountProcedure('billing:read').query(async ({ ctx }) => ({ data: await getDefaultPaymentMethod({ accountId: ctx.access.accountId }) })),
  /** A hosted page that saves a card (and makes it the default). */
  setupSession: accountProcedure('billing:manage').mutation(({ ctx }) => createSetupSession({ accountId: ctx.access.accountId, origin: originOf(ctx) })),
  checkout: accountProcedure('billing:manage')
    .input(checkoutInput)
    .mutation(({ ctx, input }) => createCreditCheckout({ accountId: ctx.access.accountId, userId: ctx.principal.userId, input, origin: originOf(ctx) })),
  /** Buy now with the saved card (no redirect); the idempotency key makes a retried click one charge. */
  purchase: accountProcedure('billing:manage')
    .input(purchaseInput)
    .mutation(({ ctx, input }) => purchaseCredits({ accountId: ctx.access.accountId, userId: ctx.principal.userId, input, setupPath: setupPath(ctx.access) })),
  autoTopUp: accountProcedure('billing:read').query(({ ctx }) => getAutoTopUp({ accountId: ctx.access.accountId })),
  updateAutoTopUp: accountProcedure('billing:manage')
    .input(autoTopUpInput)
    .mutation(({ ctx, input }) => updateAutoTopUp({ accountId: ctx.access.accountId, input, setupPath: setupPath(ctx.access) })),
  payments: accountProcedure('billing:read')
    .input(listPaymentsQuery.partial())
    .query(({ ctx, input }) => listPayments({ accountId: ctx.access.accountId, query: input })),
  payment: accountProcedure('billing:read')
    .input(z.object({ id: safeString().min(1).max(100) }))
    .query(({ ctx, input }) => getPayment({ accountId: ctx.access.accountId, paymentId: input.id })),
});
