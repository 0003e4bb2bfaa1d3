// Plans of the active organization: the catalog, the current plan with its seats, subscribing (charged to
// the saved card), changing seats, cancelling at the period's end, and the history of changes.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { listQuery, seatsInput, subscribeInput } from '@/server/billing/billing-inputs';
import { cancelPlan } from '@/server/billing/cancel-plan';
import { getCurrentPlan, getPlanHistory, listPlans } from '@/server/billing/get-plans';
import { subscribeToPlan } from '@/server/billing/subscribe-to-plan';
import { updateSeats } from '@/server/billing/update-seats';
import { accountProcedure, protectedProcedure, router } from '../init';

const setupPath = (organizationId: string) => `/api/v1/organizations/${organizationId}/payment-method/setup-session`;

export const plansRouter = router({
  list: protectedProcedure.query(() => listPlans()),
  current: accountProcedure('org:read', { organizationOnly: true }).query(({ ctx }) => getCurrentPlan({ organizationId: ctx.access.accountId })),
  subscribe: accountProcedure('plan:manage', { organizationOnly: true })
    .input(subscribeInput)
    .mutation(({ ctx, input }) => subscribeToPlan({ organizationId: ctx.access.accountId, actorUserId: ctx.principal.userId, input, setupPath: setupPath(ctx.access.accountId) })),
  updateSeats: accountProcedure('plan:manage', { organizationOnly: true })
    .input(seatsInput)
    .mutation(({ ctx, input }) => updateSeats({ organizationId: ctx.access.accountId, actorUserId: ctx.principal.userId, seats: input.seats })),
  cancel: accountProcedure('plan:manage', { organizationOnly: true })
    .input(z.object({ plan_id: safeString().min(1).max(64) }))
    .mutation(({ ctx, input }) => cancelPlan({ organizationId: ctx.access.accountId, actorUserId: ctx.principal.userId, planId: input.plan_id })),
  history: accountProcedure('billing:read', { organizationOnly: true })
    .input(listQuery.partial())
    .query(({ ctx, input }) => getPlanHistory({ organizationId: ctx.access.accountId, query: input })),
});
