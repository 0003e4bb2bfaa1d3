import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from './money';
import { postLedgerEntry, type LedgerKind } from './post-ledger-entry';
import { withDeadlockRetry } from './deadlock-retry';

export interface Balance {
  accountId: string;
  paidMicros: bigint;
  promoMicros: bigint;
  reservedMicros: bigint;
  /** paid + promo */
  totalMicros: bigint;
  /** total − reserved: what new requests may still reserve. */
  availableMicros: bigint;
}

export async function getBalanceOrThrow(accountId: string): Promise<Balance> {
  const prisma = await db();
  const a = await prisma.account.findUnique({
    where: { id: accountId },
    select: { id: true, paidMicros: true, promoMicros: true, reservedMicros: true },
  });
  if (!a) throw new AppError('not_found', 'Account not found');
  const total = a.paidMicros + a.promoMicros;
  return { accountId: a.id, paidMicros: a.paidMicros, promoMicros: a.promoMicros, reservedMicros: a.reservedMicros, totalMicros: total, availableMicros: total - a.reservedMicros };
}

/**
 * The balance DTO of the REST API and the console (USD numbers, plus exact micro-dollar strings).
 * `isDepleted` keeps the camelCase name the first-party clients already read; everything else is snake_case.
 * Depleted means nothing is available for a new request: the balance minus what in-flight requests hold.
 */
export function toBalanceDto(b: Balance) {
  return {
    account_id: b.accountId,
    balance: microsToUsd(b.totalMicros),
    paid: microsToUsd(b.paidMicros),
    promotional: microsToUsd(b.promoMicros),
    reserved: microsToUsd(b.reservedMicros),
    available: microsToUsd(b.availableMicros),
    balance_micros: b.totalMicros.toString(),
    available_micros: b.availableMicros.toString(),
    currency: 'usd',
    isDepleted: b.availableMicros <= 0n,
  };
}

/**
 * What organization members without billing:read see: whether credit remains, not how much. Members need
 * to know why their requests would be refused (402) without reading the organization's finances.
 */
export function toMemberBalanceDto(b: Balance) {
  return { account_id: b.accountId, currency: 'usd', isDepleted: b.availableMicros <= 0n };
}

export interface GrantCreditsInput {
  accountId: string;
  amountMicros: bigint;
  kind?: Extract<LedgerKind, 'PURCHASE' | 'ADJUSTMENT' | 'PLAN_CREDIT' | 'REFUND' | 'DISPUTE' | 'DISPUTE_REVERSAL'>;
  idempotencyKey: string;
  note?: string;
  actorUserId?: string;
  paymentId?: string;
}

/** Adds (or with a negative amount removes) paid credit; at most once per idempotency key. */
export async function grantCredits(input: GrantCreditsInput) {
  if (input.amountMicros === 0n) throw new AppError('bad_request', 'Amount must not be zero');
  const prisma = await db();
  // A deadlock victim changed nothing: its transaction runs again (the idempotency key keeps it once).
  const posted = await withDeadlockRetry(() => prisma.$transaction(async (tx) => {
    const entry = await postLedgerEntry(tx, {
      accountId: input.accountId,
      kind: input.kind ?? 'ADJUSTMENT',
      paidMicros: input.amountMicros,
      idempotencyKey: input.idempotencyKey,
      note: input.note,
      actorUserId: input.actorUserId,
      paymentId: input.paymentId,
    });
    if (entry.created) {
      await recordAudit(tx, {
        accountId: input.accountId,
        action: 'credits.grant',
        target: { type: 'ledger_entry', id: entry.id },
        after: { kind: (input.kind ?? 'ADJUSTMENT').toLowerCase(), amount: microsToUsd(input.amountMicros), note: input.note ?? null, balance: microsToUsd(entry.balanceAfterMicros) },
      });
    }
    return entry;
  }));
  return posted;
}
