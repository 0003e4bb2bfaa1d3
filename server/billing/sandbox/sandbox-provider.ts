// The built-in sandbox: a PaymentProvider without Stripe, for the embedded quick start, development and
// tests. Its checkout is a page of ours (app/(billing)/sandbox/checkout/[id]) and its objects are our own
// rows: a payment session is the PENDING Payment (providerCheckoutId cs_sandbox_…), a setup session is the
// PaymentMethod it will become (hidden until confirmed), a subscription is the Subscription row. Outcomes
// go through the same fulfilment code as Stripe's webhooks; invoices are "paid" at once.
import { createHash, randomBytes } from 'node:crypto';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { InvoiceSnapshot, PaymentProvider, SubscriptionSnapshot } from '../payment-provider';
import { offSessionOutcome } from './sandbox-cards';

export const SANDBOX_PAYMENT_SESSION_PREFIX = 'cs_sandbox_';
export const SANDBOX_SETUP_SESSION_PREFIX = 'cs_sandbox_setup_';
export const SANDBOX_SESSION_TTL_MS = 24 * 3600_000;

const token = (n = 12) => randomBytes(n).toString('hex');
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 24);
const originOf = (url: string) => new URL(url).origin;

/** The placeholder card a setup session will fill in; its providerId names the session. */
export const setupMethodId = (sessionId: string) => `pm_sandbox_${sessionId.slice(SANDBOX_SETUP_SESSION_PREFIX.length)}`;

function addMonth(d: Date): Date {
  const n = new Date(d);
  n.setUTCMonth(n.getUTCMonth() + 1);
  return n;
}

async function cardOrThrow(paymentMethodId: string) {
  const prisma = await db();
  const card = await prisma.paymentMethod.findUnique({ where: { providerId: paymentMethodId }, select: { last4: true, brand: true, deletedAt: true } });
  if (!card || card.deletedAt) throw new AppError('payment_required', 'The saved payment method no longer exists', { reason: 'no_payment_method' });
  return card;
}

async function chargeOrThrow(paymentMethodId: string): Promise<void> {
  const outcome = offSessionOutcome((await cardOrThrow(paymentMethodId)).last4);
  if (!outcome.ok) throw new AppError('payment_required', `Your card was declined: ${outcome.message}`, { decline_code: outcome.declineCode, provider_code: outcome.code });
}

async function subscriptionRow(providerSubscriptionId: string) {
  const prisma = await db();
  return prisma.subscription.findUnique({ where: { providerSubscriptionId }, include: { plan: { select: { pricePerSeatCents: true, currency: true } } } });
}

type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof subscriptionRow>>>;

function snapshotOf(s: SubscriptionRow, changes: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    provider: 'SANDBOX',
    providerSubscriptionId: s.providerSubscriptionId!,
    localId: s.id,
    organizationId: s.organizationId,
    planId: s.planId,
    status: s.status,
    seats: s.seats,
    itemId: null,
    currentPeriodStart: s.currentPeriodStart,
    currentPeriodEnd: s.currentPeriodEnd,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt,
    ...changes,
  };
}

function invoice(subId: string, amountCents: number, currency: string, billingReason: string, seats: number | null): InvoiceSnapshot {
  return { id: `in_sandbox_${token()}`, providerSubscriptionId: subId, paid: true, amountPaidCents: amountCents, amountDueCents: amountCents, currency, billingReason, seats, hostedUrl: null, failureReason: null };
}

export const sandboxProvider: PaymentProvider = {
  name: 'SANDBOX',

  async ensureCustomer({ accountId }) {
    return `cus_sandbox_${accountId}`;
  },

  async createCheckoutSession(i) {
    const id = `${SANDBOX_PAYMENT_SESSION_PREFIX}${token()}`;
    return { id, url: `${originOf(i.successUrl)}/sandbox/checkout/${id}`, expiresAt: new Date(Date.now() + SANDBOX_SESSION_TTL_MS) };
  },

  async createSetupSession(i) {
    const id = `${SANDBOX_SETUP_SESSION_PREFIX}${token()}`;
    const prisma = await db();
    // Hidden (deletedAt) until the buyer confirms a card on the sandbox page.
    await prisma.paymentMethod.create({
      data: { accountId: i.accountId, provider: 'SANDBOX', providerId: setupMethodId(id), brand: 'pending', last4: '', expMonth: 0, expYear: 0, deletedAt: new Date() },
    });
    return { id, url: `${originOf(i.successUrl)}/sandbox/checkout/${id}`, expiresAt: new Date(Date.now() + SANDBOX_SESSION_TTL_MS) };
  },

  async retrieveCheckoutSession(id) {
    const prisma = await db();
    if (id.startsWith(SANDBOX_SETUP_SESSION_PREFIX)) {
      const m = await prisma.paymentMethod.findUnique({ where: { providerId: setupMethodId(id) }, select: { accountId: true, providerId: true, brand: true, last4: true, expMonth: true, expYear: true, deletedAt: true, createdAt: true } });
      if (!m) return null;
      const complete = m.deletedAt === null;
      const expired = !complete && m.createdAt.getTime() + SANDBOX_SESSION_TTL_MS < Date.now();
      return {
        id, mode: 'setup', status: complete ? 'complete' : expired ? 'expired' : 'open', paymentStatus: 'no_payment_required', paymentId: null, accountId: m.accountId, providerPaymentId: null,
        card: complete ? { providerId: m.providerId, brand: m.brand, last4: m.last4, expMonth: m.expMonth, expYear: m.expYear } : null,
      };
    }
    const p = await prisma.payment.findUnique({ where: { providerCheckoutId: id }, select: { id: true, accountId: true, status: true, providerPaymentId: true, createdAt: true } });
    if (!p) return null;
    const paid = !['PENDING', 'FAILED', 'CANCELED'].includes(p.status);
    const expired = p.status === 'CANCELED' || (p.status === 'PENDING' && p.createdAt.getTime() + SANDBOX_SESSION_TTL_MS < Date.now());
    return {
      id, mode: 'payment', status: paid ? 'complete' : expired ? 'expired' : 'open', paymentStatus: paid ? 'paid' : 'unpaid',
      paymentId: p.id, accountId: p.accountId, providerPaymentId: p.providerPaymentId, card: null,
    };
  },

  async expireCheckoutSession(id) {
    // The payment row is the session: the caller records the cancellation on it.
    const s = await sandboxProvider.retrieveCheckoutSession(id);
    return s && s.status === 'open' ? { ...s, status: 'expired' } : s;
  },

  async chargeOffSession(i) {
    // Deterministic per idempotency key, like a provider replaying its stored answer.
    const providerPaymentId = `pi_sandbox_${digest(i.idempotencyKey)}`;
    const outcome = offSessionOutcome((await cardOrThrow(i.paymentMethodId)).last4);
    if (outcome.ok) return { status: 'succeeded', providerPaymentId, receiptUrl: null };
    return { status: 'failed', providerPaymentId, code: outcome.code, declineCode: outcome.declineCode, message: outcome.message, requiresAction: outcome.requiresAction };
  },

  async retrievePaymentDetails({ providerPaymentId, checkoutId }) {
    const prisma = await db();
    const where = providerPaymentId ? { providerPaymentId } : checkoutId ? { providerCheckoutId: checkoutId } : null;
    if (!where) return null;
    const p = await prisma.payment.findFirst({ where, select: { status: true, amountCents: true, refundedCents: true, currency: true, createdAt: true, failureReason: true } });
    if (!p) return null;
    return {
      provider: 'sandbox',
      object: providerPaymentId?.startsWith('in_') ? 'invoice' : providerPaymentId ? 'payment_intent' : 'checkout.session',
      id: providerPaymentId ?? checkoutId,
      status: p.status.toLowerCase(),
      amount: p.amountCents,
      amount_refunded: p.refundedCents,
      currency: p.currency,
      created: p.createdAt.toISOString(),
      last_payment_error: p.failureReason,
      sandbox: true,
    };
  },

  async ensurePlanPrice() {
    return null;
  },

  async createSubscription(i) {
    await chargeOrThrow(i.paymentMethodId);
    const now = new Date();
    const id = `sub_sandbox_${token()}`;
    const subscription: SubscriptionSnapshot = {
      provider: 'SANDBOX', providerSubscriptionId: id, localId: i.localId, organizationId: i.organizationId, planId: i.plan.id, status: 'ACTIVE', seats: i.seats,
      itemId: null, currentPeriodStart: now, currentPeriodEnd: addMonth(now), cancelAtPeriodEnd: false, canceledAt: null,
    };
    return { subscription, latestInvoice: invoice(id, i.seats * i.plan.pricePerSeatCents, i.plan.currency, 'subscription_create', i.seats) };
  },

  async updateSubscriptionSeats(i) {
    const s = await subscriptionRow(i.providerSubscriptionId);
    if (!s) throw new AppError('not_found', 'Subscription not found');
    const start = s.currentPeriodStart?.getTime() ?? Date.now();
    const end = s.currentPeriodEnd?.getTime() ?? Date.now();
    const left = end > start ? Math.max(0, Math.min(1, (end - Date.now()) / (end - start))) : 0;
    const prorationCents = Math.round((i.seats - s.seats) * s.plan.pricePerSeatCents * left);
    let latestInvoice: InvoiceSnapshot | null = null;
    if (prorationCents > 0) {
      const method = await (await db()).paymentMethod.findFirst({ where: { accountId: s.organizationId, provider: 'SANDBOX', isDefault: true, deletedAt: null }, select: { providerId: true } });
      if (!method) throw new AppError('payment_required', 'No saved payment method to charge for the added seats', { reason: 'no_payment_method' });
      await chargeOrThrow(method.providerId);
      latestInvoice = invoice(i.providerSubscriptionId, prorationCents, s.plan.currency, 'subscription_update', i.seats);
    }
    return { subscription: snapshotOf(s, { seats: i.seats }), latestInvoice, prorationCents };
  },

  async setCancelAtPeriodEnd({ providerSubscriptionId, cancel }) {
    const s = await subscriptionRow(providerSubscriptionId);
    if (!s) throw new AppError('not_found', 'Subscription not found');
    return snapshotOf(s, { cancelAtPeriodEnd: cancel });
  },

  async retrieveSubscription(providerSubscriptionId) {
    const s = await subscriptionRow(providerSubscriptionId);
    if (!s) return null;
    // No clock drives the sandbox: a period that has ended is settled when someone looks.
    if (s.status !== 'CANCELED' && s.cancelAtPeriodEnd && s.currentPeriodEnd && s.currentPeriodEnd.getTime() <= Date.now()) {
      return snapshotOf(s, { status: 'CANCELED', canceledAt: s.currentPeriodEnd });
    }
    return snapshotOf(s);
  },
};
