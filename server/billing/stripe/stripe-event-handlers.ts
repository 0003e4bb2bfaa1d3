// What each Stripe event means for us. Handlers trust the signed event for ids, and re-read objects
// whose latest state matters (subscriptions) from Stripe, so late or reordered events cannot roll state
// back. Every handler ends in the same idempotent fulfilment code the API and the sandbox use.
import type Stripe from 'stripe';
import { db } from '@/server/db';
import { fulfilCheckout } from '../fulfil-checkout';
import type { PaymentProvider } from '../payment-provider';
import type { PaymentRef } from '../payment-transitions';
import { recordInvoiceFailed, recordInvoicePaid } from '../record-invoice';
import { applyDispute, applyRefund, closeDispute } from '../reverse-payment';
import { markPaymentFailed, markPaymentSucceeded } from '../settle-payment';
import { syncSubscription } from '../sync-subscription';
import { mapCheckoutSession, mapInvoice, mapSubscription } from './map-stripe-objects';

interface Deps {
  stripe: Stripe;
  provider: PaymentProvider;
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

/**
 * Our payment behind a charge's payment intent: by the stored id, else by the intent's metadata, else (a
 * subscription invoice's charge: its payment is keyed by the invoice, record-invoice.ts) by the invoice it paid.
 */
async function paymentForIntent(paymentIntentId: string | null, stripe: Stripe): Promise<PaymentRef | null> {
  if (!paymentIntentId) return null;
  const prisma = await db();
  if (await prisma.payment.findUnique({ where: { providerPaymentId: paymentIntentId }, select: { id: true } })) return { providerPaymentId: paymentIntentId };
  const pi = await stripe.paymentIntents.retrieve(paymentIntentId).catch(() => null);
  if (pi?.metadata?.payment_id) return { paymentId: pi.metadata.payment_id };
  const paid = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntentId }, limit: 1 });
  const invoiceId = idOf(paid.data[0]?.invoice);
  if (!invoiceId) return null;
  return (await prisma.payment.findUnique({ where: { providerPaymentId: invoiceId }, select: { id: true } })) ? { providerPaymentId: invoiceId } : null;
}

async function syncFromStripe(subscriptionId: string, fallback: Stripe.Subscription | null, d: Deps, providerEventId: string) {
  const fresh = (await d.provider.retrieveSubscription(subscriptionId)) ?? (fallback ? mapSubscription(fallback) : null);
  if (fresh) await syncSubscription(fresh, { providerEventId });
}

export async function dispatchStripeEvent(event: Stripe.Event, d: Deps): Promise<void> {
  const providerEventId = event.id;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired': {
      const s = event.data.object;
      // The card a session saved (a setup session's, or a paid one's kept for later) is on an intent the event
      // does not expand: ask Stripe for a completed session.
      const state = s.status === 'complete' ? ((await d.provider.retrieveCheckoutSession(s.id)) ?? mapCheckoutSession(s)) : mapCheckoutSession(s);
      if (state) await fulfilCheckout(state, { provider: 'STRIPE', providerEventId });
      return;
    }
    case 'checkout.session.async_payment_failed':
      await fulfilCheckout(mapCheckoutSession(event.data.object), { provider: 'STRIPE', providerEventId, failedReason: 'the delayed payment failed' });
      return;
    case 'payment_intent.succeeded': {
      const pi = event.data.object;
      if (pi.metadata?.payment_id) await markPaymentSucceeded({ ref: { paymentId: pi.metadata.payment_id }, providerPaymentId: pi.id, providerEventId, reason: 'payment intent succeeded' });
      return;
    }
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      const paymentId = pi.metadata?.payment_id;
      if (!paymentId) return;
      // In a checkout the buyer may try another card; the session's own events decide that payment.
      const payment = await (await db()).payment.findUnique({ where: { id: paymentId }, select: { kind: true } });
      if (!payment || payment.kind === 'CHECKOUT') return;
      const err = pi.last_payment_error;
      await markPaymentFailed({ ref: { paymentId }, providerPaymentId: pi.id, providerEventId, reason: `${err?.message ?? 'payment failed'}${err?.decline_code ? ` (${err.decline_code})` : ''}` });
      return;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const ref = await paymentForIntent(idOf(charge.payment_intent), d.stripe);
      if (ref) await applyRefund({ ref, refundedCents: charge.amount_refunded, providerEventId });
      return;
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const ref = await paymentForIntent(idOf(dispute.payment_intent), d.stripe);
      if (!ref) return;
      if (event.type === 'charge.dispute.created') await applyDispute({ ref, disputeId: dispute.id, amountCents: dispute.amount, providerEventId });
      else await closeDispute({ ref, disputeId: dispute.id, amountCents: dispute.amount, outcome: dispute.status, providerEventId });
      return;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await syncFromStripe(event.data.object.id, event.data.object, d, providerEventId);
      return;
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const inv = mapInvoice(event.data.object);
      if (inv.providerSubscriptionId) await syncFromStripe(inv.providerSubscriptionId, null, d, providerEventId);
      if (event.type === 'invoice.paid') await recordInvoicePaid(inv, { provider: d.provider, providerEventId });
      else await recordInvoiceFailed(inv, { provider: d.provider, providerEventId });
      return;
    }
    default:
      return; // not an event we act on (it is still recorded)
  }
}
