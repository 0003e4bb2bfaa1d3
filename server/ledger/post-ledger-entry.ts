// The one place a balance changes. Inside a transaction: lock the account row by updating its cached
// buckets, check the cause's idempotency key (the row lock serialises writers of one account, so the
// check cannot race), append the entry with the balance after it. Same code on PostgreSQL and PGlite.
// Account rows are locked FOR NO KEY UPDATE, never FOR UPDATE: every insert that references an account
// (a grant, a reservation, a usage record, a ledger entry) takes FOR KEY SHARE on it for its foreign key,
// which FOR UPDATE would wait for; a transaction holding that share lock and then asking for the account
// lock deadlocked against a settlement (found by ledger.property.integration.test.ts on PostgreSQL).
import type { Prisma } from '@/server/db/generated/client';
import { AppError } from '@/server/errors';

export type Tx = Prisma.TransactionClient;

export type LedgerKind =
  | 'PURCHASE'
  | 'PROMOTION'
  | 'PLAN_CREDIT'
  | 'USAGE'
  | 'REFUND'
  | 'DISPUTE'
  | 'DISPUTE_REVERSAL'
  | 'PROMOTION_EXPIRY'
  | 'ADJUSTMENT';

export interface LedgerEntryInput {
  accountId: string;
  kind: LedgerKind;
  /** Signed change of paid credit. */
  paidMicros: bigint;
  /** Signed change of promotional credit. */
  promoMicros?: bigint;
  /** "payment:<id>", "usage:<generationId>", "promotion:<grantId>", "adjustment:<uuid>"… */
  idempotencyKey: string;
  generationId?: string;
  paymentId?: string;
  promotionGrantId?: string;
  actorUserId?: string;
  note?: string;
}

export interface PostedEntry {
  id: string;
  /** false when the idempotency key had already been posted: nothing changed. */
  created: boolean;
  balanceAfterMicros: bigint;
}

export async function postLedgerEntry(tx: Tx, input: LedgerEntryInput): Promise<PostedEntry> {
  const promo = input.promoMicros ?? 0n;
  // Lock first (a zero-change update takes the row lock), then check for a previous posting.
  const locked = await tx.$queryRaw<{ paidMicros: bigint; promoMicros: bigint }[]>`
    SELECT "paidMicros", "promoMicros" FROM "Account" WHERE id = ${input.accountId} FOR NO KEY UPDATE`;
  if (locked.length === 0) throw new AppError('not_found', `Account ${input.accountId} not found`);

  const existing = await tx.ledgerEntry.findUnique({
    where: { idempotencyKey: input.idempotencyKey },
    select: { id: true, balanceAfterMicros: true, accountId: true },
  });
  if (existing) {
    if (existing.accountId !== input.accountId) throw new AppError('conflict', 'Idempotency key already used for another account');
    return { id: existing.id, created: false, balanceAfterMicros: existing.balanceAfterMicros };
  }

  const [after] = await tx.$queryRaw<{ paidMicros: bigint; promoMicros: bigint }[]>`
    UPDATE "Account" SET "paidMicros" = "paidMicros" + ${input.paidMicros}, "promoMicros" = "promoMicros" + ${promo}, "updatedAt" = now()
    WHERE id = ${input.accountId} RETURNING "paidMicros", "promoMicros"`;
  const balanceAfterMicros = after.paidMicros + after.promoMicros;
  const entry = await tx.ledgerEntry.create({
    data: {
      accountId: input.accountId,
      kind: input.kind,
      amountMicros: input.paidMicros + promo,
      paidMicros: input.paidMicros,
      promoMicros: promo,
      balanceAfterMicros,
      idempotencyKey: input.idempotencyKey,
      generationId: input.generationId,
      paymentId: input.paymentId,
      promotionGrantId: input.promotionGrantId,
      actorUserId: input.actorUserId,
      note: input.note,
    },
    select: { id: true },
  });
  return { id: entry.id, created: true, balanceAfterMicros };
}
