// The payment state machine. Every change of Payment.status goes through transitionPayment, inside a
// transaction that holds the payment's row lock, and leaves a PaymentEvent behind. Transitions the table
// does not allow are ignored rather than thrown: providers deliver events late, twice and out of order,
// and an old "failed" must not undo a "succeeded" that was already applied.
//
//   PENDING ──► SUCCEEDED ──► PARTIALLY_REFUNDED ──► REFUNDED
//      │  ▲         │                 │                 │
//      ▼  │         └───────► DISPUTED ◄────────────────┘   (a won dispute goes back)
//   FAILED / CANCELED   (a late success still wins: the money was taken, so it is credited)
import { currentAuditActor, type AuditActor } from '@/server/audit/audit-context';
import { recordAudit } from '@/server/audit/record-audit';
import type { Tx } from '@/server/ledger/post-ledger-entry';
import { paymentAuditView } from './payment-dto';

export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'REFUNDED' | 'PARTIALLY_REFUNDED' | 'DISPUTED';

const NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PENDING: ['SUCCEEDED', 'FAILED', 'CANCELED'],
  FAILED: ['SUCCEEDED'],
  CANCELED: ['SUCCEEDED'],
  SUCCEEDED: ['PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED'],
  PARTIALLY_REFUNDED: ['REFUNDED', 'DISPUTED'],
  REFUNDED: ['DISPUTED'],
  DISPUTED: ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'],
};

/** States in which the payment's credit has been added to the balance. */
export const CREDITED_STATES: readonly PaymentStatus[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'DISPUTED'];

export const lockedPaymentSelect = {
  id: true,
  accountId: true,
  userId: true,
  provider: true,
  kind: true,
  status: true,
  creditMicros: true,
  amountCents: true,
  refundedCents: true,
  providerPaymentId: true,
  providerCheckoutId: true,
  creditedAt: true,
} as const;

export interface LockedPayment {
  id: string;
  accountId: string;
  userId: string | null;
  provider: 'STRIPE' | 'SANDBOX';
  kind: 'CHECKOUT' | 'DIRECT' | 'AUTO_TOP_UP' | 'SUBSCRIPTION';
  status: PaymentStatus;
  creditMicros: bigint;
  amountCents: number;
  refundedCents: number;
  providerPaymentId: string | null;
  providerCheckoutId: string | null;
  creditedAt: Date | null;
}

export type PaymentRef = { paymentId: string } | { providerPaymentId: string } | { checkoutId: string };

/** Locks the payment row (FOR UPDATE) for the rest of the transaction; null when no payment matches. */
export async function lockPayment(tx: Tx, ref: PaymentRef): Promise<LockedPayment | null> {
  const rows =
    'paymentId' in ref
      ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Payment" WHERE id = ${ref.paymentId} FOR UPDATE`
      : 'providerPaymentId' in ref
        ? await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Payment" WHERE "providerPaymentId" = ${ref.providerPaymentId} FOR UPDATE`
        : await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Payment" WHERE "providerCheckoutId" = ${ref.checkoutId} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.payment.findUnique({ where: { id: rows[0].id }, select: lockedPaymentSelect });
}

export interface TransitionOptions {
  reason?: string | null;
  providerEventId?: string | null;
  /** Other columns to change with the status. */
  data?: { providerPaymentId?: string; receiptUrl?: string | null; creditedAt?: Date; failureReason?: string | null; creditMicros?: bigint; amountCents?: number };
}

/**
 * The actor of what a payment provider reports (a charge succeeded, a refund, a dispute): the system — its
 * webhook's call when that is how we heard — even when we heard it while answering someone's request
 * (a buyer polling the status of a checkout did not make it succeed).
 */
function providerActor(p: LockedPayment): AuditActor {
  const current = currentAuditActor();
  return current.kind === 'system' ? current : { kind: 'system', via: 'system', label: p.provider.toLowerCase() };
}

/**
 * An audit entry for a payment (`payment.succeeded`, `payment.refund`…) with the payment before and as it is now.
 * Refunds and dispute endings are recorded by reverse-payment.ts, which knows the amounts and outcomes.
 */
export async function recordPaymentAudit(tx: Tx, p: LockedPayment, action: string, before: LockedPayment | null, extra: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(tx, {
    accountId: p.accountId,
    action,
    target: { type: 'payment', id: p.id },
    before: before ? paymentAuditView(before) : undefined,
    after: { ...paymentAuditView(p), ...extra },
    actor: providerActor(p),
  });
}

/** The transitions recorded as `payment.<status>` here; the others by the refund and dispute code. */
const AUDITED_TRANSITIONS: Partial<Record<PaymentStatus, string>> = {
  SUCCEEDED: 'payment.succeeded',
  FAILED: 'payment.failed',
  CANCELED: 'payment.canceled',
  DISPUTED: 'payment.disputed',
};

/** Applies an allowed transition and records it; false (and nothing written) when not allowed. */
export async function transitionPayment(tx: Tx, p: LockedPayment, to: PaymentStatus, o: TransitionOptions = {}): Promise<boolean> {
  if (p.status === to || !NEXT[p.status].includes(to)) return false;
  const before = { ...p };
  await tx.payment.update({ where: { id: p.id }, data: { status: to, ...o.data } });
  await tx.paymentEvent.create({ data: { paymentId: p.id, fromStatus: p.status, toStatus: to, reason: o.reason ?? null, providerEventId: o.providerEventId ?? null } });
  p.status = to;
  if (o.data?.providerPaymentId) p.providerPaymentId = o.data.providerPaymentId;
  if (o.data?.creditMicros !== undefined) p.creditMicros = o.data.creditMicros;
  if (o.data?.amountCents !== undefined) p.amountCents = o.data.amountCents;
  const action = before.status === 'DISPUTED' ? undefined : AUDITED_TRANSITIONS[to];
  if (action) await recordPaymentAudit(tx, p, action, before, o.reason ? { reason: o.reason } : {});
  return true;
}

/** Records something that happened to a payment without changing its status (a declined attempt, a lost dispute). */
export async function notePayment(tx: Tx, p: LockedPayment, reason: string, providerEventId?: string | null): Promise<void> {
  await tx.paymentEvent.create({ data: { paymentId: p.id, fromStatus: p.status, toStatus: p.status, reason, providerEventId: providerEventId ?? null } });
}

/** The share of a payment's credit that `cents` of its charged amount stands for (rounded down). */
export function creditShare(p: Pick<LockedPayment, 'creditMicros' | 'amountCents'>, cents: number): bigint {
  if (p.amountCents <= 0 || cents <= 0) return 0n;
  const c = BigInt(Math.min(cents, p.amountCents));
  return (p.creditMicros * c) / BigInt(p.amountCents);
}
