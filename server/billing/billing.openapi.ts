// OpenAPI declarations of the payment endpoints, from the schemas that validate them (billing-inputs.ts).
// Each operation exists for a personal account (/users/{id}, id = "me" or your user id) and for an
// organization (/organizations/{id}); plans are declared in plans.openapi.ts.
import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { autoTopUpInput, checkoutInput, listPaymentsQuery, PAYMENT_STATUSES, purchaseInput } from './billing-inputs';
import './plans.openapi';

export const paymentSchema = z
  .object({
    id: z.string(),
    account_id: z.string(),
    user_id: z.string().nullable(),
    provider: z.enum(['stripe', 'sandbox']),
    kind: z.enum(['checkout', 'direct', 'auto_top_up', 'subscription']),
    status: z.enum(PAYMENT_STATUSES),
    amount: z.number().describe('Charged, USD'),
    amount_cents: z.number().int(),
    currency: z.string(),
    credit: z.number().describe('Credit bought, USD (included plan credit for subscription invoices)'),
    refunded_amount_cents: z.number().int(),
    failure_reason: z.string().nullable(),
    receipt_url: z.string().nullable(),
    checkout_session_id: z.string().nullable(),
    provider_payment_id: z.string().nullable().describe('pi_… / in_… at the provider'),
    credited_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Payment' });

const page = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), has_more: z.boolean(), next_cursor: z.string().nullable() });

const paymentDetails = paymentSchema.extend({
  events: z.array(z.object({ from_status: z.string().nullable(), to_status: z.string(), reason: z.string().nullable(), provider_event_id: z.string().nullable(), created_at: z.string() })),
  ledger_entries: z.array(z.object({ id: z.string(), kind: z.string(), amount: z.number(), balance_after: z.number(), created_at: z.string() })),
});

export const paymentMethodSchema = z
  .object({ id: z.string(), provider: z.string(), brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int(), created_at: z.string() })
  .meta({ id: 'PaymentMethod' });

const balance = z.object({ account_id: z.string(), balance: z.number(), paid: z.number(), promotional: z.number(), reserved: z.number(), available: z.number(), balance_micros: z.string(), currency: z.string() });
const session = z.object({ checkout_session_id: z.string(), url: z.string().describe('Send the buyer here'), expires_at: z.string().nullable() });

const autoTopUp = z
  .object({
    account_id: z.string(),
    enabled: z.boolean(),
    threshold: z.number(),
    amount: z.number(),
    disabled_reason: z.string().nullable().describe('Why it was switched off automatically (a declined card…)'),
    in_flight_payment_id: z.string().nullable(),
    last_triggered_at: z.string().nullable(),
    payment_method: paymentMethodSchema.nullable(),
  })
  .meta({ id: 'AutoTopUp' });

const scopes = [
  { prefix: '/users/{id}', tag: 'Users', params: z.object({ id: z.string().describe('"me" or your user id') }) },
  { prefix: '/organizations/{id}', tag: 'Organizations', params: z.object({ id: z.string().describe('Organization id') }) },
] as const;

defineEndpoint({
  method: 'post', path: '/users/credits/checkout', summary: 'Start a credit purchase checkout (your personal account)', tags: ['Payments'],
  description: 'Creates a hosted checkout (Stripe Checkout, or the sandbox page without Stripe) and returns its URL. Credit is added once the payment succeeds.',
  body: checkoutInput, status: 201, response: session.extend({ payment: paymentSchema }), errors: [503],
});

/** Who may spend an organization's money (permissions.ts billing:manage): admins read billing but do not pay. */
const PAYS = 'On an organization: owners and members with the billing role (billing:manage); admins and members get 403.';

for (const s of scopes) {
  const withPayment = s.params.extend({ paymentId: z.string() });
  const tags = ['Payments', s.tag];
  /** The description of a route that spends: on an organization, who may. */
  const spends = (text?: string) => (s.tag === 'Organizations' ? [text, PAYS].filter(Boolean).join(' ') : text);
  if (s.tag === 'Organizations') {
    defineEndpoint({
      method: 'post', path: `${s.prefix}/credits/checkout`, summary: 'Start a credit purchase checkout', tags, params: s.params, description: spends(),
      body: checkoutInput, status: 201, response: session.extend({ payment: paymentSchema }), errors: [403, 404, 503],
    });
  }
  defineEndpoint({
    method: 'post', path: `${s.prefix}/credits/purchase`, summary: 'Buy credits now with the saved default card', tags, params: s.params, body: purchaseInput,
    description: spends('An off-session charge. Idempotent per key (body idempotency_key or the Idempotency-Key header). A declined card or one that needs 3-D Secure is a 402 naming the reason; nothing is credited.'),
    response: z.object({ payment: paymentSchema, balance }), errors: [402, 403, 404, 409, 502, 503],
  });
  defineEndpoint({ method: 'get', path: `${s.prefix}/payments`, summary: 'Payment history (newest first)', tags, params: s.params, query: listPaymentsQuery, response: page(paymentSchema), errors: [403, 404] });
  defineEndpoint({ method: 'get', path: `${s.prefix}/payments/{paymentId}`, summary: 'Payment details with its state history', tags, params: withPayment, response: paymentDetails, errors: [403, 404] });
  defineEndpoint({
    method: 'get', path: `${s.prefix}/payments/{paymentId}/status`, summary: 'Payment status (a pending checkout is checked with the provider)', tags, params: withPayment,
    response: z.object({ id: z.string(), status: z.enum(PAYMENT_STATUSES), credited: z.boolean(), failure_reason: z.string().nullable(), updated_at: z.string() }), errors: [403, 404],
  });
  defineEndpoint({
    method: 'get', path: `${s.prefix}/payments/provider/{paymentId}`, summary: "The payment provider's record of a payment", tags, params: withPayment,
    description: 'paymentId may be our id or the provider\'s (pi_…, cs_…, in_…).',
    response: z.object({ payment_id: z.string(), provider: z.string(), data: z.record(z.string(), z.unknown()) }), errors: [403, 404, 409, 502],
  });
  defineEndpoint({ method: 'get', path: `${s.prefix}/auto-top-up`, summary: 'Auto top-up settings', tags, params: s.params, response: autoTopUp, errors: [403, 404] });
  defineEndpoint({
    method: 'put', path: `${s.prefix}/auto-top-up`, summary: 'Configure auto top-up', tags, params: s.params, body: autoTopUpInput, response: autoTopUp, errors: [402, 403, 404],
    description: spends('When a charge takes the balance below threshold, one top-up of amount is charged to the saved card (at most one at a time, at most one a minute). A failed top-up switches it off and says why. Enabling needs a saved card (402 otherwise).'),
  });
  defineEndpoint({
    method: 'get', path: `${s.prefix}/payment-method/default`, summary: 'Default payment method (brand, last 4, expiry)', tags, params: s.params,
    response: z.object({ data: paymentMethodSchema.nullable() }), errors: [403, 404],
  });
  defineEndpoint({
    method: 'post', path: `${s.prefix}/payment-method/setup-session`, summary: 'Start saving a card (checkout in setup mode)', tags, params: s.params, status: 201,
    description: spends('Returns a URL; once the card is confirmed it becomes the default payment method.'), response: session, errors: [403, 404, 503],
  });
}
