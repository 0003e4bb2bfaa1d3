// Fulfilment: the one place a successful payment becomes credit, and a failed one becomes a recorded
// failure. Webhooks, the checkout success redirect, synchronous off-session charges and the sandbox all
// end here. The payment row lock + the ledger's `payment:<id>` idempotency key make it exactly once.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { formatUsd } from '@/server/ledger/money';
import { postLedgerEntry, type Tx } from '@/server/ledger/post-ledger-entry';
import { recordAutoTopUpDisabled } from './auto-top-up-settings';
import { CREDITED_STATES, lockPayment, notePayment, transitionPayment, type LockedPayment, type PaymentRef, type PaymentStatus } from './payment-transitions';
import { reverseRefundedShare, statusAfterRefunds } from './reverse-payment';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { paymentRef } from '@/server/webhooks/webhook-events';

export interface SettleOutcome {
  paymentId: string;
  status: PaymentStatus;
  /** true only for the call that added the credit. */
  credited: boolean;
}

export interface SucceededInput {
  ref: PaymentRef;
  providerPaymentId?: string | null;
  receiptUrl?: string | null;
  providerEventId?: string | null;
  reason?: string;
}

export async function markPaymentSucceeded(input: SucceededInput): Promise<SettleOutcome | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return null;
    if (CREDITED_STATES.includes(p.status)) return { paymentId: p.id, status: p.status, credited: false };
    await transitionPayment(tx, p, 'SUCCEEDED', {
      reason: input.reason ?? 'payment succeeded',
      providerEventId: input.providerEventId,
      data: {
        ...(!p.providerPaymentId && input.providerPaymentId ? { providerPaymentId: input.providerPaymentId } : {}),
        receiptUrl: input.receiptUrl ?? undefined,
        creditedAt: new Date(),
        failureReason: null,
      },
    });
    await postLedgerEntry(tx, {
      accountId: p.accountId,
      kind: 'PURCHASE',
      paidMicros: p.creditMicros,
      idempotencyKey: `payment:${p.id}`,
      paymentId: p.id,
      actorUserId: p.userId ?? undefined,
      note: `${formatUsd(p.creditMicros)} of credit (${p.kind.toLowerCase().replace(/_/g, ' ')})`,
    });
    await releaseAutoTopUp(tx, p, null);
    await recordAccountEvent(tx, { accountId: p.accountId, type: 'payment.succeeded', data: { payment: paymentRef(p) } });
    // A refund reported before the success (out-of-order delivery) is reversed now, and the payment says so.
    if (p.refundedCents > 0) {
      await reverseRefundedShare(tx, p, input.providerEventId ?? null);
      await transitionPayment(tx, p, statusAfterRefunds(p), { reason: `refunded ${p.refundedCents} of ${p.amountCents} cents`, providerEventId: input.providerEventId });
    }
    return { paymentId: p.id, status: p.status, credited: true };
  });
}

export interface FailedInput {
  ref: PaymentRef;
  reason: string;
  status?: 'FAILED' | 'CANCELED';
  providerPaymentId?: string | null;
  providerEventId?: string | null;
}

/** A pending payment failed or was canceled: no credit, the reason recorded. Later states are left alone. */
export async function markPaymentFailed(input: FailedInput): Promise<SettleOutcome | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return null;
    const to = input.status ?? 'FAILED';
    const data = { failureReason: input.reason.slice(0, 500), ...(!p.providerPaymentId && input.providerPaymentId ? { providerPaymentId: input.providerPaymentId } : {}) };
    const failedNow = p.status === 'PENDING' && (await transitionPayment(tx, p, to, { reason: input.reason, providerEventId: input.providerEventId, data }));
    // A canceled payment (an abandoned checkout) is no failure to report; a declined one is.
    if (failedNow && to === 'FAILED') await recordAccountEvent(tx, { accountId: p.accountId, type: 'payment.failed', data: { payment: paymentRef(p), reason: input.reason.slice(0, 500) } });
    const disabled = await releaseAutoTopUp(tx, p, `Top-up payment ${to === 'CANCELED' ? 'canceled' : 'failed'}: ${input.reason}`);
    if (disabled) await recordAccountEvent(tx, { accountId: p.accountId, type: 'auto_top_up.failed', data: { reason: input.reason.slice(0, 500), payment_id: p.id } });
    return { paymentId: p.id, status: p.status, credited: false };
  });
}

/** A pending payment learned its provider id or an intermediate fact (e.g. awaiting a bank transfer). */
export async function notePendingPayment(input: { ref: PaymentRef; reason: string; providerPaymentId?: string | null; providerEventId?: string | null }): Promise<void> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return;
    if (!p.providerPaymentId && input.providerPaymentId) {
      await tx.payment.update({ where: { id: p.id }, data: { providerPaymentId: input.providerPaymentId } });
    }
    if (p.status === 'PENDING') await notePayment(tx, p, input.reason, input.providerEventId);
  });
}

/**
 * A resolved auto top-up frees the account for the next one; a failed one also switches auto top-up off
 * with the reason, so a bad card is not charged again and again. True when a failure switched it off (once:
 * the in-flight payment id is cleared with it).
 */
async function releaseAutoTopUp(tx: Tx, p: LockedPayment, failure: string | null): Promise<boolean> {
  const released = await tx.autoTopUp.updateMany({
    where: { inFlightPaymentId: p.id },
    data: failure ? { inFlightPaymentId: null, enabled: false, disabledReason: failure.slice(0, 500) } : { inFlightPaymentId: null },
  });
  const disabled = failure !== null && released.count > 0;
  if (disabled) await recordAutoTopUpDisabled(tx, p.accountId, failure.slice(0, 500));
  return disabled;
}

export function assertFound<T>(v: T | null, what = 'Payment'): T {
  if (v === null) throw new AppError('not_found', `${what} not found`);
  return v;
}
