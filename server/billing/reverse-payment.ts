// Refunds and disputes take back the credit a payment bought, through ledger entries tied to the payment:
//   refund (partial or full)  → REFUND entries, up to the refunded share of the credit
//   dispute opened            → DISPUTE entry `dispute:<id>` for the disputed share (never more than is left)
//   dispute won               → DISPUTE_REVERSAL entry giving that amount back
// Providers report refunds as a running total, so each event moves the reversal to "refunded share"
// whatever order or number of times the events arrive. The balance may go below zero: that is a debt the
// account pays before it can spend again.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { formatUsd } from '@/server/ledger/money';
import { postLedgerEntry, type Tx } from '@/server/ledger/post-ledger-entry';
import { CREDITED_STATES, creditShare, lockPayment, notePayment, recordPaymentAudit, transitionPayment, type LockedPayment, type PaymentRef, type PaymentStatus } from './payment-transitions';

async function reversedByKind(tx: Tx, paymentId: string, kind: 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL'): Promise<bigint> {
  const agg = await tx.ledgerEntry.aggregate({ where: { paymentId, kind }, _sum: { paidMicros: true } });
  return agg._sum.paidMicros ?? 0n;
}

/** Brings the REFUND entries of a credited payment up to the share of credit its refunded cents stand for. */
export async function reverseRefundedShare(tx: Tx, p: LockedPayment, providerEventId: string | null): Promise<void> {
  const target = creditShare(p, p.refundedCents);
  const done = -(await reversedByKind(tx, p.id, 'REFUND'));
  if (target <= done) return;
  await postLedgerEntry(tx, {
    accountId: p.accountId,
    kind: 'REFUND',
    paidMicros: -(target - done),
    idempotencyKey: `refund:${p.id}:${p.refundedCents}`,
    paymentId: p.id,
    note: `Refunded ${p.refundedCents} of ${p.amountCents} cents: ${formatUsd(target - done)} of credit reversed${providerEventId ? ` (${providerEventId})` : ''}`,
  });
}

export const statusAfterRefunds = (p: LockedPayment): PaymentStatus => (p.refundedCents >= p.amountCents ? 'REFUNDED' : p.refundedCents > 0 ? 'PARTIALLY_REFUNDED' : 'SUCCEEDED');

/** `refundedCents` is the provider's running total for the charge. */
export async function applyRefund(input: { ref: PaymentRef; refundedCents: number; providerEventId?: string | null }): Promise<PaymentStatus | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return null;
    const before = { ...p };
    const refunded = Math.min(p.amountCents, Math.max(p.refundedCents, input.refundedCents));
    if (refunded !== p.refundedCents) {
      await tx.payment.update({ where: { id: p.id }, data: { refundedCents: refunded } });
      p.refundedCents = refunded;
    }
    // Not credited yet (the success is still on its way): the refund is applied when it arrives.
    if (CREDITED_STATES.includes(p.status)) {
      await reverseRefundedShare(tx, p, input.providerEventId ?? null);
      const reason = `refunded ${refunded} of ${p.amountCents} cents`;
      if (p.status === 'DISPUTED') await notePayment(tx, p, reason, input.providerEventId);
      else await transitionPayment(tx, p, statusAfterRefunds(p), { reason, providerEventId: input.providerEventId });
    }
    // Once per change of the running total, however often the provider repeats it.
    if (refunded !== before.refundedCents) await recordPaymentAudit(tx, p, 'payment.refund', before);
    return p.status;
  });
}

/** Posts the dispute's debit once; returns the debit as posted (0 when nothing was left to take). */
async function postDisputeDebit(tx: Tx, p: LockedPayment, disputeId: string, amountCents: number): Promise<bigint> {
  const key = `dispute:${disputeId}`;
  const existing = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: key }, select: { paidMicros: true } });
  if (existing) return -existing.paidMicros;
  const alreadyTaken = -(await reversedByKind(tx, p.id, 'REFUND')) - (await reversedByKind(tx, p.id, 'DISPUTE')) - (await reversedByKind(tx, p.id, 'DISPUTE_REVERSAL'));
  const left = p.creditMicros - alreadyTaken;
  const debit = [creditShare(p, amountCents), left].reduce((a, b) => (a < b ? a : b));
  if (debit <= 0n) return 0n;
  await postLedgerEntry(tx, { accountId: p.accountId, kind: 'DISPUTE', paidMicros: -debit, idempotencyKey: key, paymentId: p.id, note: `Dispute ${disputeId}: ${formatUsd(debit)} of credit held back` });
  return debit;
}

async function disputeReversed(tx: Tx, disputeId: string): Promise<boolean> {
  return (await tx.ledgerEntry.count({ where: { idempotencyKey: `dispute-reversal:${disputeId}` } })) > 0;
}

export async function applyDispute(input: { ref: PaymentRef; disputeId: string; amountCents: number; providerEventId?: string | null }): Promise<PaymentStatus | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return null;
    // Only a paid charge can be disputed, so its success is on its way (events out of order). Refusing the event
    // makes the provider deliver it again later, when the credit it holds back is there; a note here would be
    // the dispute forgotten, and the credit kept whole.
    if (!CREDITED_STATES.includes(p.status)) {
      throw new AppError('conflict', `Dispute ${input.disputeId} is for payment ${p.id}, which is not credited yet: deliver the event again once it is`);
    }
    // The close arrived first (out of order): the dispute is already over.
    if (await disputeReversed(tx, input.disputeId)) return p.status;
    await postDisputeDebit(tx, p, input.disputeId, input.amountCents);
    const reason = `dispute ${input.disputeId} opened for ${input.amountCents} cents`;
    if (!(await transitionPayment(tx, p, 'DISPUTED', { reason, providerEventId: input.providerEventId }))) await notePayment(tx, p, reason, input.providerEventId);
    return p.status;
  });
}

const WON = ['won', 'warning_closed', 'prevented'];

export async function closeDispute(input: { ref: PaymentRef; disputeId: string; amountCents: number; outcome: string; providerEventId?: string | null }): Promise<PaymentStatus | null> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const p = await lockPayment(tx, input.ref);
    if (!p) return null;
    const before = { ...p };
    const audit = () => recordPaymentAudit(tx, p, 'payment.dispute_closed', before, { dispute_id: input.disputeId, outcome: input.outcome });
    if (!WON.includes(input.outcome)) {
      await notePayment(tx, p, `dispute ${input.disputeId} closed: ${input.outcome}`, input.providerEventId);
      await audit();
      return p.status;
    }
    if (CREDITED_STATES.includes(p.status)) {
      // Debit first if the opening event has not been seen, so the reversal below never gives credit twice.
      const debit = await postDisputeDebit(tx, p, input.disputeId, input.amountCents);
      if (debit > 0n) {
        await postLedgerEntry(tx, {
          accountId: p.accountId,
          kind: 'DISPUTE_REVERSAL',
          paidMicros: debit,
          idempotencyKey: `dispute-reversal:${input.disputeId}`,
          paymentId: p.id,
          note: `Dispute ${input.disputeId} won: ${formatUsd(debit)} of credit restored`,
        });
      }
    }
    const reason = `dispute ${input.disputeId} closed: ${input.outcome}`;
    if (p.status !== 'DISPUTED' || !(await transitionPayment(tx, p, statusAfterRefunds(p), { reason, providerEventId: input.providerEventId }))) {
      await notePayment(tx, p, reason, input.providerEventId);
    }
    await audit();
    return p.status;
  });
}
