// Subscription invoices: each paid invoice becomes a SUBSCRIPTION payment in the organization's history
// (keyed `invoice:<id>`), and a subscription's first or renewal invoice grants the plan's included credit
// (includedCreditMicrosPerSeat × seats) as one PLAN_CREDIT entry keyed `plan-credit:<invoice id>`. Proration
// invoices (seat changes) are recorded but grant nothing: credit comes with the monthly invoice, so adding
// and removing seats cannot mint it. An invoice that arrives before its subscription is known first asks
// the provider for the subscription.
import { db } from '@/server/db';
import { formatUsd } from '@/server/ledger/money';
import { postLedgerEntry } from '@/server/ledger/post-ledger-entry';
import type { InvoiceSnapshot, PaymentProvider } from './payment-provider';
import { lockedPaymentSelect, notePayment, recordPaymentAudit, transitionPayment } from './payment-transitions';
import { syncSubscription } from './sync-subscription';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { paymentRef } from '@/server/webhooks/webhook-events';

const CREDIT_GRANTING_REASONS = ['subscription_create', 'subscription_cycle'];

async function subscriptionFor(inv: InvoiceSnapshot, provider: PaymentProvider, providerEventId: string | null) {
  if (!inv.providerSubscriptionId) return null;
  const prisma = await db();
  const find = () =>
    prisma.subscription.findUnique({
      where: { providerSubscriptionId: inv.providerSubscriptionId! },
      select: { id: true, organizationId: true, seats: true, planId: true, plan: { select: { includedCreditMicrosPerSeat: true } } },
    });
  const known = await find();
  if (known) return known;
  const snapshot = await provider.retrieveSubscription(inv.providerSubscriptionId);
  if (!snapshot) return null;
  await syncSubscription(snapshot, { providerEventId });
  return find();
}

export async function recordInvoicePaid(inv: InvoiceSnapshot, o: { provider: PaymentProvider; providerEventId?: string | null }): Promise<void> {
  if (!inv.paid) return;
  const eventId = o.providerEventId ?? null;
  const sub = await subscriptionFor(inv, o.provider, eventId);
  if (!sub) return;
  const seats = inv.seats ?? sub.seats;
  const credit = CREDIT_GRANTING_REASONS.includes(inv.billingReason) ? sub.plan.includedCreditMicrosPerSeat * BigInt(seats) : 0n;
  if (inv.amountPaidCents === 0 && credit === 0n) return;
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    // One invoice at a time per subscription: the payment row below is created once.
    await tx.$queryRaw`SELECT id FROM "Subscription" WHERE id = ${sub.id} FOR UPDATE`;
    const key = `invoice:${inv.id}`;
    let payment = await tx.payment.findUnique({ where: { idempotencyKey: key }, select: lockedPaymentSelect });
    if (!payment) {
      payment = await tx.payment.create({
        data: {
          accountId: sub.organizationId, provider: o.provider.name, kind: 'SUBSCRIPTION', status: 'SUCCEEDED', creditMicros: credit, amountCents: inv.amountPaidCents,
          currency: inv.currency, providerPaymentId: inv.id, idempotencyKey: key, receiptUrl: inv.hostedUrl, creditedAt: new Date(),
        },
        select: lockedPaymentSelect,
      });
      await tx.paymentEvent.create({ data: { paymentId: payment.id, toStatus: 'SUCCEEDED', reason: `invoice paid (${inv.billingReason}, ${seats} seats)`, providerEventId: eventId } });
      await recordAccountEvent(tx, { accountId: sub.organizationId, type: 'payment.succeeded', data: { payment: paymentRef(payment) } });
      await recordPaymentAudit(tx, payment, 'payment.succeeded', null, { reason: `invoice paid (${inv.billingReason}, ${seats} seats)` });
    } else if (payment.status === 'FAILED' || payment.status === 'PENDING') {
      // A retried invoice that failed before: it now grants the plan's credit and shows what was paid.
      const data = { creditedAt: new Date(), failureReason: null, creditMicros: credit, amountCents: inv.amountPaidCents };
      if (await transitionPayment(tx, payment, 'SUCCEEDED', { reason: 'invoice paid after a failed attempt', providerEventId: eventId, data })) {
        await recordAccountEvent(tx, { accountId: sub.organizationId, type: 'payment.succeeded', data: { payment: paymentRef(payment) } });
      }
    }
    if (credit > 0n) {
      await postLedgerEntry(tx, {
        accountId: sub.organizationId, kind: 'PLAN_CREDIT', paidMicros: credit, idempotencyKey: `plan-credit:${inv.id}`, paymentId: payment.id,
        note: `${formatUsd(credit)} included with the ${sub.planId} plan (${seats} seats, invoice ${inv.id})`,
      });
    }
  });
}

/** A subscription invoice could not be charged: a FAILED payment and a plan-history entry; the status follows the provider (past_due). */
export async function recordInvoiceFailed(inv: InvoiceSnapshot, o: { provider: PaymentProvider; providerEventId?: string | null }): Promise<void> {
  const eventId = o.providerEventId ?? null;
  const sub = await subscriptionFor(inv, o.provider, eventId);
  if (!sub) return;
  const prisma = await db();
  const reason = inv.failureReason ?? 'the invoice payment failed';
  await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Subscription" WHERE id = ${sub.id} FOR UPDATE`;
    const key = `invoice:${inv.id}`;
    const existing = await tx.payment.findUnique({ where: { idempotencyKey: key }, select: lockedPaymentSelect });
    if (existing) {
      if (existing.status === 'FAILED') await notePayment(tx, existing, `retry failed: ${reason}`, eventId);
      return;
    }
    const payment = await tx.payment.create({
      data: {
        accountId: sub.organizationId, provider: o.provider.name, kind: 'SUBSCRIPTION', status: 'FAILED', creditMicros: 0n, amountCents: inv.amountDueCents,
        currency: inv.currency, providerPaymentId: inv.id, idempotencyKey: key, failureReason: reason, receiptUrl: inv.hostedUrl,
      },
      select: lockedPaymentSelect,
    });
    await tx.paymentEvent.create({ data: { paymentId: payment.id, toStatus: 'FAILED', reason, providerEventId: eventId } });
    await recordAccountEvent(tx, { accountId: sub.organizationId, type: 'payment.failed', data: { payment: paymentRef(payment), reason: reason.slice(0, 500) } });
    await recordPaymentAudit(tx, payment, 'payment.failed', null, { reason });
    await tx.subscriptionChange.create({ data: { subscriptionId: sub.id, organizationId: sub.organizationId, kind: 'payment_failed', fromPlanId: sub.planId, providerEventId: eventId } });
  });
}
