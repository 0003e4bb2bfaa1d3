// Promotional credit that reaches its grant's expiresAt is removed exactly once: the grant is marked
// expired (remainingMicros → 0) and a PROMOTION_EXPIRY ledger entry takes what was left out of
// Account.promoMicros, in one transaction. The grant row lock and its expiredAt guard make a second run
// (or a concurrent sweeper in another process) a no-op; the idempotency key guards the entry as well.
// Locks are taken in the order settlement takes them (account, then grant), so the two cannot deadlock.
// Run from the reservation sweeper's loop (ledger/sweep-reservations.ts).
import { db } from '@/server/db';
import { postLedgerEntry } from '@/server/ledger/post-ledger-entry';

export async function expirePromotionGrants(now = new Date(), limit = 100): Promise<number> {
  const prisma = await db();
  const due = await prisma.promotionGrant.findMany({
    where: { expiredAt: null, expiresAt: { lte: now } },
    orderBy: { expiresAt: 'asc' },
    select: { id: true, accountId: true },
    take: limit,
  });
  let expired = 0;
  for (const g of due) {
    const done = await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${g.accountId} FOR NO KEY UPDATE`;
      const [row] = await tx.$queryRaw<{ remainingMicros: bigint }[]>`
        SELECT "remainingMicros" FROM "PromotionGrant" WHERE id = ${g.id} AND "expiredAt" IS NULL FOR NO KEY UPDATE`;
      if (!row) return false;
      await tx.$executeRaw`UPDATE "PromotionGrant" SET "expiredAt" = ${now}, "remainingMicros" = 0 WHERE id = ${g.id}`;
      if (row.remainingMicros > 0n) {
        await postLedgerEntry(tx, {
          accountId: g.accountId,
          kind: 'PROMOTION_EXPIRY',
          paidMicros: 0n,
          promoMicros: -row.remainingMicros,
          idempotencyKey: `promotion-expiry:${g.id}`,
          promotionGrantId: g.id,
          note: 'Promotional credit expired',
        });
      }
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
