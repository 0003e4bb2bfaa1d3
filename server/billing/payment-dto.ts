// The payment record as clients see it (snake_case, USD numbers, lower-case states).
import { microsToUsd } from '@/server/ledger/money';

export const paymentSelect = {
  id: true,
  accountId: true,
  userId: true,
  provider: true,
  kind: true,
  status: true,
  creditMicros: true,
  amountCents: true,
  currency: true,
  refundedCents: true,
  providerCheckoutId: true,
  providerPaymentId: true,
  failureReason: true,
  receiptUrl: true,
  creditedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface PaymentRow {
  id: string;
  accountId: string;
  userId: string | null;
  provider: string;
  kind: string;
  status: string;
  creditMicros: bigint;
  amountCents: number;
  currency: string;
  refundedCents: number;
  providerCheckoutId: string | null;
  providerPaymentId: string | null;
  failureReason: string | null;
  receiptUrl: string | null;
  creditedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const lower = (s: string) => s.toLowerCase();

export function toPaymentDto(p: PaymentRow) {
  return {
    id: p.id,
    account_id: p.accountId,
    user_id: p.userId,
    provider: lower(p.provider),
    kind: lower(p.kind),
    status: lower(p.status),
    amount: p.amountCents / 100,
    amount_cents: p.amountCents,
    currency: p.currency,
    credit: microsToUsd(p.creditMicros),
    refunded_amount_cents: p.refundedCents,
    failure_reason: p.failureReason,
    receipt_url: p.receiptUrl,
    checkout_session_id: p.providerCheckoutId,
    provider_payment_id: p.providerPaymentId,
    credited_at: p.creditedAt?.toISOString() ?? null,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
export type PaymentDto = ReturnType<typeof toPaymentDto>;

export const auditPaymentSelect = { id: true, provider: true, kind: true, status: true, amountCents: true, creditMicros: true, refundedCents: true } as const;

/** A payment as the audit log keeps it: what it is and where it stands, no provider references. */
export function paymentAuditView(p: { id: string; provider: string; kind: string; status: string; amountCents: number; creditMicros: bigint; refundedCents: number }) {
  return {
    id: p.id,
    provider: lower(p.provider),
    kind: lower(p.kind),
    status: lower(p.status),
    amount_cents: p.amountCents,
    credit: microsToUsd(p.creditMicros),
    refunded_amount_cents: p.refundedCents,
  };
}

export function toPaymentEventDto(e: { fromStatus: string | null; toStatus: string; reason: string | null; providerEventId: string | null; createdAt: Date }) {
  return {
    from_status: e.fromStatus ? lower(e.fromStatus) : null,
    to_status: lower(e.toStatus),
    reason: e.reason,
    provider_event_id: e.providerEventId,
    created_at: e.createdAt.toISOString(),
  };
}

export function toPaymentMethodDto(m: { id: string; provider: string; brand: string; last4: string; expMonth: number; expYear: number; createdAt: Date }) {
  return {
    id: m.id,
    provider: lower(m.provider),
    brand: m.brand,
    last4: m.last4,
    exp_month: m.expMonth,
    exp_year: m.expYear,
    created_at: m.createdAt.toISOString(),
  };
}
export type PaymentMethodDto = ReturnType<typeof toPaymentMethodDto>;
