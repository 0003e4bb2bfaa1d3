// The payment provider behind billing: Stripe when STRIPE_SECRET_KEY is set, otherwise the built-in sandbox
// (server/billing/sandbox) that behaves like Stripe end to end with pages of our own. Services speak only
// this interface and normalised shapes; what a provider reports (a webhook, a redirect, a synchronous
// charge) is applied by the same idempotent fulfilment code (payment-transitions.ts, fulfil-checkout.ts,
// sync-subscription.ts), so "credit once" does not depend on which path arrives first.
import { env, type Env } from '@/server/env';
import { AppError } from '@/server/errors';

export type ProviderName = 'STRIPE' | 'SANDBOX';

export interface CardDetails {
  providerId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface SessionRef {
  id: string;
  url: string;
  expiresAt: Date | null;
}

/** A checkout session as the provider sees it now (payment or setup mode). */
export interface CheckoutState {
  id: string;
  mode: 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** Our Payment id (metadata / client_reference_id). */
  paymentId: string | null;
  accountId: string | null;
  providerPaymentId: string | null;
  /** Setup mode, once complete: the card that was saved; payment mode: the card paid with, when it was kept for later use. */
  card: CardDetails | null;
}

export type ChargeOutcome =
  | { status: 'succeeded'; providerPaymentId: string; receiptUrl: string | null }
  | { status: 'processing'; providerPaymentId: string }
  | { status: 'failed'; providerPaymentId: string | null; code: string; declineCode: string | null; message: string; requiresAction: boolean };

export type SubscriptionStatus = 'INCOMPLETE' | 'TRIALING' | 'ACTIVE' | 'PAST_DUE' | 'CANCELED';

export interface SubscriptionSnapshot {
  provider: ProviderName;
  providerSubscriptionId: string;
  /** Our Subscription row id, carried in the provider's metadata (null for subscriptions made elsewhere). */
  localId: string | null;
  organizationId: string;
  planId: string;
  status: SubscriptionStatus;
  seats: number;
  itemId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
}

export interface InvoiceSnapshot {
  id: string;
  providerSubscriptionId: string | null;
  paid: boolean;
  amountPaidCents: number;
  amountDueCents: number;
  currency: string;
  /** subscription_create | subscription_cycle | subscription_update | manual … */
  billingReason: string;
  /** Seats billed by the plan's line (null when the invoice has no such line). */
  seats: number | null;
  hostedUrl: string | null;
  failureReason: string | null;
}

export interface SubscriptionResult {
  subscription: SubscriptionSnapshot;
  /** The invoice the change produced, when the provider settled it synchronously. */
  latestInvoice: InvoiceSnapshot | null;
}

export interface PlanForProvider {
  id: string;
  name: string;
  pricePerSeatCents: number;
  currency: string;
  interval: string;
  stripePriceId: string | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The provider's customer for an account (created once; Stripe's id is stored on Account). */
  ensureCustomer(input: { accountId: string; name: string; email: string | null }): Promise<string>;
  createCheckoutSession(input: {
    paymentId: string;
    accountId: string;
    customerId: string;
    amountCents: number;
    currency: string;
    description: string;
    successUrl: string;
    cancelUrl: string;
    /** Keep the card for off-session charges (Stripe: payment_intent_data.setup_future_usage = off_session). */
    saveCard: boolean;
  }): Promise<SessionRef>;
  /** Ends an open checkout so it can no longer be paid (the buyer cancelled); returns the session as it is then. */
  expireCheckoutSession(id: string): Promise<CheckoutState | null>;
  createSetupSession(input: { accountId: string; customerId: string; successUrl: string; cancelUrl: string }): Promise<SessionRef>;
  retrieveCheckoutSession(id: string): Promise<CheckoutState | null>;
  /** An off-session charge of a saved card; never throws for a decline (that is an outcome). */
  chargeOffSession(input: {
    paymentId: string;
    accountId: string;
    customerId: string;
    paymentMethodId: string;
    amountCents: number;
    currency: string;
    description: string;
    idempotencyKey: string;
  }): Promise<ChargeOutcome>;
  /** The provider's own record of a payment (payment intent, checkout session or invoice), for display. */
  retrievePaymentDetails(ref: { providerPaymentId: string | null; checkoutId: string | null }): Promise<Record<string, unknown> | null>;
  /** The provider's price for a plan (created on first use); null when the provider needs none. */
  ensurePlanPrice(plan: PlanForProvider): Promise<string | null>;
  createSubscription(input: {
    localId: string;
    organizationId: string;
    plan: PlanForProvider;
    priceId: string | null;
    seats: number;
    customerId: string;
    paymentMethodId: string;
    idempotencyKey: string;
  }): Promise<SubscriptionResult>;
  updateSubscriptionSeats(input: { providerSubscriptionId: string; itemId: string | null; seats: number; idempotencyKey: string }): Promise<SubscriptionResult & { prorationCents: number | null }>;
  setCancelAtPeriodEnd(input: { providerSubscriptionId: string; cancel: boolean }): Promise<SubscriptionSnapshot>;
  retrieveSubscription(providerSubscriptionId: string): Promise<SubscriptionSnapshot | null>;
}

/**
 * The sandbox mints credit for free, so it runs only where that is harmless: the embedded quick start,
 * development and tests. A production deployment on PostgreSQL without Stripe gets a clear 503 instead.
 */
export function sandboxAllowed(e: Env = env()): boolean {
  return !e.STRIPE_SECRET_KEY && (e.embedded || e.NODE_ENV !== 'production');
}

let cached: { provider: PaymentProvider; env: Env } | undefined;

export async function paymentProvider(): Promise<PaymentProvider> {
  const e = env();
  if (cached?.env === e) return cached.provider;
  let provider: PaymentProvider;
  if (e.STRIPE_SECRET_KEY) provider = (await import('./stripe/stripe-provider')).createStripeProvider(e);
  else if (sandboxAllowed(e)) provider = (await import('./sandbox/sandbox-provider')).sandboxProvider;
  else throw new AppError('service_unavailable', 'Payments are not configured on this server (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)');
  cached = { provider, env: e };
  return provider;
}

/** Tests switch between Stripe (a local fake) and the sandbox; this forgets the chosen provider. */
export function resetPaymentProvider(): void {
  cached = undefined;
}
