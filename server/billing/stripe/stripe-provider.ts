// PaymentProvider on Stripe: Checkout Sessions (payment and setup mode), off-session PaymentIntents,
// per-seat subscriptions. Every creating call carries an idempotency key derived from our own row, so a
// retried request never charges or subscribes twice.
import Stripe from 'stripe';
import type { Env } from '@/server/env';
import { AppError } from '@/server/errors';
import type { PaymentProvider, SubscriptionResult } from '../payment-provider';
import { stripeClient } from './stripe-client';
import {
  checkoutSessionDetails,
  invoiceDetails,
  mapCard,
  mapCardError,
  mapCheckoutSession,
  mapInvoice,
  mapPaymentIntent,
  mapSubscription,
  paymentIntentDetails,
} from './map-stripe-objects';

/** The card a session saved: a setup session's, or a payment session's when it was kept for off-session use. */
function sessionCard(s: Stripe.Checkout.Session) {
  if (s.mode === 'setup') return s.setup_intent && typeof s.setup_intent === 'object' ? mapCard(s.setup_intent.payment_method) : null;
  const pi = s.payment_intent;
  return pi && typeof pi === 'object' && pi.setup_future_usage === 'off_session' ? mapCard(pi.payment_method) : null;
}

const isStripeError = (err: unknown): err is Stripe.errors.StripeError => err instanceof Stripe.errors.StripeError;

/** Stripe's failures as our vocabulary: a declined card is the caller's 402, anything else a 502. */
function toAppError(err: unknown): unknown {
  if (!isStripeError(err)) return err;
  if (err.type === 'StripeCardError') {
    return new AppError('payment_required', `Your card was declined: ${err.message}`, { decline_code: err.decline_code ?? null, provider_code: err.code ?? null });
  }
  return new AppError('upstream_error', `The payment provider refused the request: ${err.message}`, { provider_code: err.code ?? null, provider_request_id: err.requestId ?? null });
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toAppError(err);
  }
}

async function orNull<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    if (isStripeError(err) && err.statusCode === 404) return null;
    throw toAppError(err);
  }
}

function subscriptionResult(sub: Stripe.Subscription): SubscriptionResult {
  const subscription = mapSubscription(sub);
  if (!subscription) throw new AppError('upstream_error', 'The payment provider returned a subscription without our metadata');
  const invoice = typeof sub.latest_invoice === 'object' && sub.latest_invoice ? mapInvoice(sub.latest_invoice) : null;
  return { subscription, latestInvoice: invoice };
}

export function createStripeProvider(e: Env): PaymentProvider {
  const stripe = stripeClient(e);
  return {
    name: 'STRIPE',

    async ensureCustomer({ accountId, name, email }) {
      const c = await call(() => stripe.customers.create({ name, ...(email ? { email } : {}), metadata: { account_id: accountId } }, { idempotencyKey: `customer:${accountId}` }));
      return c.id;
    },

    async createCheckoutSession(i) {
      const metadata = { payment_id: i.paymentId, account_id: i.accountId, purpose: 'credits' };
      const s = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            customer: i.customerId,
            client_reference_id: i.paymentId,
            line_items: [{ quantity: 1, price_data: { currency: i.currency, unit_amount: i.amountCents, product_data: { name: i.description } } }],
            metadata,
            // With the buyer's consent (our form): Checkout tells them the card is kept for future payments and
            // attaches it to the customer, so auto top-up and "buy now" can charge it off-session later.
            payment_intent_data: { metadata, description: i.description, ...(i.saveCard ? { setup_future_usage: 'off_session' as const } : {}) },
            success_url: i.successUrl,
            cancel_url: i.cancelUrl,
          },
          { idempotencyKey: `checkout:${i.paymentId}` },
        ),
      );
      return { id: s.id, url: s.url!, expiresAt: new Date(s.expires_at * 1000) };
    },

    async createSetupSession(i) {
      const s = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'setup',
          customer: i.customerId,
          allowed_payment_method_types: ['card'],
          metadata: { account_id: i.accountId, purpose: 'payment_method' },
          setup_intent_data: { metadata: { account_id: i.accountId } },
          success_url: i.successUrl,
          cancel_url: i.cancelUrl,
        }),
      );
      return { id: s.id, url: s.url!, expiresAt: new Date(s.expires_at * 1000) };
    },

    async retrieveCheckoutSession(id) {
      const s = await orNull(() => stripe.checkout.sessions.retrieve(id, { expand: ['setup_intent.payment_method', 'payment_intent.payment_method'] }));
      return s ? mapCheckoutSession(s, sessionCard(s)) : null;
    },

    async expireCheckoutSession(id) {
      const s = await orNull(() => stripe.checkout.sessions.retrieve(id));
      if (!s) return null;
      // Only an open session can be expired; a completed one stays as it is (it was paid after all).
      const ended = s.status === 'open' ? await call(() => stripe.checkout.sessions.expire(id)) : s;
      return mapCheckoutSession(ended);
    },

    async chargeOffSession(i) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: i.amountCents,
            currency: i.currency,
            customer: i.customerId,
            payment_method: i.paymentMethodId,
            off_session: true,
            confirm: true,
            description: i.description,
            metadata: { payment_id: i.paymentId, account_id: i.accountId },
            expand: ['latest_charge'],
          },
          { idempotencyKey: i.idempotencyKey },
        );
        return mapPaymentIntent(pi);
      } catch (err) {
        if (isStripeError(err) && err.type === 'StripeCardError') return mapCardError(err);
        throw toAppError(err);
      }
    },

    async retrievePaymentDetails({ providerPaymentId, checkoutId }) {
      if (providerPaymentId?.startsWith('pi_')) {
        const pi = await orNull(() => stripe.paymentIntents.retrieve(providerPaymentId, { expand: ['latest_charge'] }));
        return pi ? paymentIntentDetails(pi) : null;
      }
      if (providerPaymentId?.startsWith('in_')) {
        const inv = await orNull(() => stripe.invoices.retrieve(providerPaymentId));
        return inv ? invoiceDetails(inv) : null;
      }
      if (checkoutId) {
        const s = await orNull(() => stripe.checkout.sessions.retrieve(checkoutId));
        return s ? checkoutSessionDetails(s) : null;
      }
      return null;
    },

    async ensurePlanPrice(plan) {
      if (plan.stripePriceId) return plan.stripePriceId;
      // Keys name the price itself, so a changed price or interval makes a new Stripe price.
      const key = `${plan.id}:${plan.pricePerSeatCents}:${plan.currency}:${plan.interval}`;
      const product = await call(() => stripe.products.create({ name: `Switchboard ${plan.name}`, metadata: { plan_id: plan.id } }, { idempotencyKey: `product:${key}` }));
      const interval = plan.interval as Stripe.PriceCreateParams.Recurring.Interval;
      const price = await call(() =>
        stripe.prices.create(
          { product: product.id, unit_amount: plan.pricePerSeatCents, currency: plan.currency, recurring: { interval }, metadata: { plan_id: plan.id } },
          { idempotencyKey: `price:${key}` },
        ),
      );
      return price.id;
    },

    async createSubscription(i) {
      if (!i.priceId) throw new Error('A Stripe subscription needs a price');
      const sub = await call(() =>
        stripe.subscriptions.create(
          {
            customer: i.customerId,
            items: [{ price: i.priceId!, quantity: i.seats }],
            default_payment_method: i.paymentMethodId,
            // The first invoice is paid now or the subscription is not created at all (402, nothing to undo).
            payment_behavior: 'error_if_incomplete',
            metadata: { organization_id: i.organizationId, plan_id: i.plan.id, subscription_id: i.localId },
            expand: ['latest_invoice'],
          },
          { idempotencyKey: i.idempotencyKey },
        ),
      );
      return subscriptionResult(sub);
    },

    async updateSubscriptionSeats(i) {
      const itemId = i.itemId ?? (await call(() => stripe.subscriptions.retrieve(i.providerSubscriptionId))).items.data[0]?.id;
      if (!itemId) throw new AppError('upstream_error', 'The subscription has no item to change');
      const sub = await call(() =>
        stripe.subscriptions.update(
          i.providerSubscriptionId,
          {
            items: [{ id: itemId, quantity: i.seats }],
            // Added seats are invoiced and charged now, pro rata; removed seats become credit on the next invoice.
            proration_behavior: 'always_invoice',
            payment_behavior: 'error_if_incomplete',
            expand: ['latest_invoice'],
          },
          { idempotencyKey: i.idempotencyKey },
        ),
      );
      const result = subscriptionResult(sub);
      const inv = typeof sub.latest_invoice === 'object' && sub.latest_invoice ? sub.latest_invoice : null;
      return { ...result, prorationCents: inv && inv.billing_reason === 'subscription_update' ? inv.total : null };
    },

    async setCancelAtPeriodEnd({ providerSubscriptionId, cancel }) {
      const sub = await call(() => stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: cancel }));
      return subscriptionResult(sub).subscription;
    },

    async retrieveSubscription(id) {
      const sub = await orNull(() => stripe.subscriptions.retrieve(id));
      return sub ? mapSubscription(sub) : null;
    },
  };
}
