// OpenAPI declarations of the plan endpoints (imported by billing.openapi.ts).
import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { listQuery, seatsInput, subscribeInput } from './billing-inputs';

export const planSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    price_per_seat: z.number().describe('USD per seat per interval'),
    price_per_seat_cents: z.number().int(),
    currency: z.string(),
    interval: z.string(),
    included_credit_per_seat: z.number().describe('USD of credit per seat with each paid monthly invoice'),
    max_members: z.number().int().nullable(),
    seat_limited: z.boolean(),
    features: z.array(z.string()),
  })
  .meta({ id: 'Plan' });

const subscription = z
  .object({
    id: z.string(),
    plan_id: z.string(),
    status: z.enum(['incomplete', 'trialing', 'active', 'past_due', 'canceled']),
    seats: z.number().int(),
    provider: z.string(),
    provider_subscription_id: z.string().nullable(),
    current_period_start: z.string().nullable(),
    current_period_end: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
    canceled_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Subscription' });

const currentPlan = z.object({
  plan: planSchema,
  subscription: subscription.nullable().describe('null on the free plan'),
  member_count: z.number().int(),
  included_credit_per_period: z.number(),
});

const change = z.object({
  id: z.string(),
  kind: z.string().describe('subscribed, seats_changed, cancel_scheduled, cancel_withdrawn, canceled, past_due, payment_failed, activated, reactivated, plan_changed'),
  from_plan_id: z.string().nullable(),
  to_plan_id: z.string().nullable(),
  from_seats: z.number().int().nullable(),
  to_seats: z.number().int().nullable(),
  actor_user_id: z.string().nullable(),
  provider_event_id: z.string().nullable(),
  created_at: z.string(),
});

const org = z.object({ id: z.string().describe('Organization id') });
const tags = ['Plans'];

defineEndpoint({ method: 'get', path: '/plans', summary: 'List available plans', tags, response: z.object({ data: z.array(planSchema) }) });
defineEndpoint({ method: 'get', path: '/organizations/{id}/plan', summary: 'Current plan (free when there is no subscription)', tags, params: org, response: currentPlan, errors: [404] });
defineEndpoint({
  method: 'post', path: '/organizations/{id}/plan', summary: 'Subscribe to a plan', tags, params: org, body: subscribeInput, status: 201, response: currentPlan, errors: [402, 403, 404, 409, 502, 503],
  description: 'A subscription with quantity = seats (default: the member count, never fewer), charged now to the saved card. Owners and members with the billing role only (plan:manage); admins get 403. Subscribing again to a plan set to end keeps it.',
});
defineEndpoint({ method: 'get', path: '/organizations/{id}/plan/history', summary: 'Plan change history', tags, params: org, query: listQuery, response: z.object({ data: z.array(change), has_more: z.boolean(), next_cursor: z.string().nullable() }), errors: [403, 404] });
defineEndpoint({ method: 'get', path: '/organizations/{id}/plan/{planId}', summary: 'Plan details', tags, params: org.extend({ planId: z.string() }), response: planSchema.extend({ current: z.boolean() }), errors: [404] });
defineEndpoint({
  method: 'put', path: '/organizations/{id}/plan/seats', summary: 'Change the seat count', tags, params: org, body: seatsInput, errors: [400, 402, 403, 404, 409, 502],
  description: 'Added seats are charged now, pro rata; removed seats are credited on the next invoice. Never below the member count (400). Owners and the billing role (plan:manage); admins get 403.',
  response: currentPlan.extend({ proration: z.object({ amount: z.number(), amount_cents: z.number().int() }).nullable() }),
});
defineEndpoint({
  method: 'delete', path: '/organizations/{id}/plan/{planId}', summary: 'Cancel a plan at the end of the paid period', tags, params: org.extend({ planId: z.string() }), response: currentPlan, errors: [403, 404, 409, 502],
  description: 'Owners and the billing role (plan:manage); admins get 403.',
});
