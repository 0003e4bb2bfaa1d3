// REST handlers of /plans and /organizations/{id}/plan…: reading the plan needs membership (org:read),
// the history billing:read, and changing it plan:manage (owners and billing managers).
import { apiRoute, parseBody, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { listQuery, seatsInput, subscribeInput } from '../billing-inputs';
import { cancelPlan } from '../cancel-plan';
import { getCurrentPlan, getPlanDetails, getPlanHistory, listPlans } from '../get-plans';
import { subscribeToPlan } from '../subscribe-to-plan';
import { updateSeats } from '../update-seats';

type Params = { id: string; planId?: string };

export const listPlansRoute = apiRoute(async () => listPlans());

export const getCurrentPlanRoute = apiRoute<Params>(async ({ principal, params }) => {
  await authorizeOrganization(principal, params.id, 'org:read');
  return getCurrentPlan({ organizationId: params.id });
});

export const subscribeRoute = apiRoute<Params>(
  async ({ request, principal, params }) => {
    await authorizeOrganization(principal, params.id, 'plan:manage');
    const input = await parseBody(request, subscribeInput);
    return subscribeToPlan({ organizationId: params.id, actorUserId: principal.userId, input, setupPath: `/api/v1/organizations/${params.id}/payment-method/setup-session` });
  },
  { status: 201 },
);

export const planHistoryRoute = apiRoute<Params>(async ({ request, principal, params }) => {
  await authorizeOrganization(principal, params.id, 'billing:read');
  return getPlanHistory({ organizationId: params.id, query: parseQuery(request, listQuery) });
});

export const planDetailsRoute = apiRoute<Params>(async ({ principal, params }) => {
  await authorizeOrganization(principal, params.id, 'org:read');
  return getPlanDetails({ organizationId: params.id, planId: params.planId! });
});

export const cancelPlanRoute = apiRoute<Params>(async ({ principal, params }) => {
  await authorizeOrganization(principal, params.id, 'plan:manage');
  return cancelPlan({ organizationId: params.id, actorUserId: principal.userId, planId: params.planId! });
});

export const updateSeatsRoute = apiRoute<Params>(async ({ request, principal, params }) => {
  await authorizeOrganization(principal, params.id, 'plan:manage');
  const { seats } = await parseBody(request, seatsInput);
  return updateSeats({ organizationId: params.id, actorUserId: principal.userId, seats });
});
