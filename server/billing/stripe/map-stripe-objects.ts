// Pure translators from Stripe's objects (API version of the installed SDK) to billing's normalised shapes.
import type Stripe from 'stripe';
import type { CardDetails, ChargeOutcome, CheckoutState, InvoiceSnapshot, SubscriptionSnapshot, SubscriptionStatus } from '../payment-provider';

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);
const date = (unix: number | null | undefined): Date | null => (unix ? new Date(unix * 1000) : null);

export function mapCard(pm: Stripe.PaymentMethod | string | null | undefined): CardDetails | null {
  if (!pm || typeof pm === 'string' || !pm.card) return null;
  return { providerId: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

export function mapCheckoutSession(s: Stripe.Checkout.Session, card: CardDetails | null = null): CheckoutState {
  return {
    id: s.id,
    mode: s.mode === 'setup' ? 'setup' : 'payment',
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    paymentStatus: s.payment_status === 'paid' ? 'paid' : s.payment_status === 'no_payment_required' ? 'no_payment_required' : 'unpaid',
    paymentId: s.metadata?.payment_id ?? s.client_reference_id ?? null,
    accountId: s.metadata?.account_id ?? null,
    providerPaymentId: idOf(s.payment_intent),
    card,
  };
}

const SUBSCRIPTION_STATUS: Record<string, SubscriptionStatus> = {
  incomplete: 'INCOMPLETE',
  incomplete_expired: 'CANCELED',
  trialing: 'TRIALING',
  active: 'ACTIVE',
  past_due: 'PAST_DUE',
  unpaid: 'PAST_DUE',
  paused: 'PAST_DUE',
  canceled: 'CANCELED',
};

/** null for subscriptions that are not ours (no organization in their metadata). */
export function mapSubscription(s: Stripe.Subscription): SubscriptionSnapshot | null {
  const organizationId = s.metadata?.organization_id;
  const planId = s.metadata?.plan_id;
  if (!organizationId || !planId) return null;
  const item = s.items?.data?.[0];
  return {
    provider: 'STRIPE',
    providerSubscriptionId: s.id,
    localId: s.metadata?.subscription_id ?? null,
    organizationId,
    planId,
    status: SUBSCRIPTION_STATUS[s.status] ?? 'INCOMPLETE',
    seats: item?.quantity ?? 1,
    itemId: item?.id ?? null,
    // Since API version 2025-03-31 the billing period lives on the items.
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    canceledAt: date(s.canceled_at ?? s.ended_at),
  };
}

export function mapInvoice(i: Stripe.Invoice): InvoiceSnapshot {
  const subscription = i.parent?.subscription_details?.subscription;
  const seatLine = i.lines?.data?.find((l) => l.amount >= 0 && l.quantity != null && l.parent?.type === 'subscription_item_details');
  return {
    id: i.id!,
    providerSubscriptionId: idOf(subscription),
    paid: i.status === 'paid',
    amountPaidCents: i.amount_paid,
    amountDueCents: i.amount_due,
    currency: i.currency,
    billingReason: i.billing_reason ?? 'manual',
    seats: seatLine?.quantity ?? null,
    hostedUrl: i.hosted_invoice_url ?? null,
    failureReason: i.last_finalization_error?.message ?? null,
  };
}

export function mapPaymentIntent(pi: Stripe.PaymentIntent): ChargeOutcome {
  if (pi.status === 'succeeded') {
    const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
    return { status: 'succeeded', providerPaymentId: pi.id, receiptUrl: charge?.receipt_url ?? null };
  }
  if (pi.status === 'processing') return { status: 'processing', providerPaymentId: pi.id };
  const err = pi.last_payment_error;
  const requiresAction = pi.status === 'requires_action' || err?.code === 'authentication_required';
  return {
    status: 'failed',
    providerPaymentId: pi.id,
    code: requiresAction ? 'authentication_required' : (err?.code ?? pi.status),
    declineCode: err?.decline_code ?? null,
    message: err?.message ?? (requiresAction ? 'The card requires authentication' : `The payment is ${pi.status.replace(/_/g, ' ')}`),
    requiresAction,
  };
}

/** A card error from a confirm call (Stripe answers 402 with the payment intent inside). */
export function mapCardError(err: Stripe.errors.StripeError): ChargeOutcome {
  const requiresAction = err.code === 'authentication_required' || err.payment_intent?.status === 'requires_action';
  return {
    status: 'failed',
    providerPaymentId: err.payment_intent?.id ?? null,
    code: requiresAction ? 'authentication_required' : (err.code ?? 'card_error'),
    declineCode: err.decline_code ?? null,
    message: err.message,
    requiresAction,
  };
}

/** What GET …/payments/provider/{id} shows: the provider's own view, without secrets (client_secret). */
export function paymentIntentDetails(pi: Stripe.PaymentIntent): Record<string, unknown> {
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return {
    provider: 'stripe',
    object: 'payment_intent',
    id: pi.id,
    status: pi.status,
    amount: pi.amount,
    amount_received: pi.amount_received,
    currency: pi.currency,
    created: new Date(pi.created * 1000).toISOString(),
    charge: charge ? { id: charge.id, amount_refunded: charge.amount_refunded, disputed: charge.disputed, receipt_url: charge.receipt_url } : null,
    card: card ? { brand: card.brand, last4: card.last4 } : null,
    last_payment_error: pi.last_payment_error ? { code: pi.last_payment_error.code, decline_code: pi.last_payment_error.decline_code, message: pi.last_payment_error.message } : null,
  };
}

export function checkoutSessionDetails(s: Stripe.Checkout.Session): Record<string, unknown> {
  return {
    provider: 'stripe',
    object: 'checkout.session',
    id: s.id,
    status: s.status,
    payment_status: s.payment_status,
    amount_total: s.amount_total,
    currency: s.currency,
    url: s.status === 'open' ? s.url : null,
    expires_at: new Date(s.expires_at * 1000).toISOString(),
    payment_intent: idOf(s.payment_intent),
  };
}

export function invoiceDetails(i: Stripe.Invoice): Record<string, unknown> {
  return {
    provider: 'stripe',
    object: 'invoice',
    id: i.id,
    status: i.status,
    amount_due: i.amount_due,
    amount_paid: i.amount_paid,
    currency: i.currency,
    billing_reason: i.billing_reason,
    hosted_invoice_url: i.hosted_invoice_url ?? null,
    created: new Date(i.created * 1000).toISOString(),
  };
}
