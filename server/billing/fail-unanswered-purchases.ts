// A direct purchase (POST …/credits/purchase) whose charge got no answer from the payment provider — a timeout, a
// connection lost — stays PENDING with no provider payment id. The client can repeat the request with the same
// idempotency key, which asks the provider again; one that never does left the payment pending for good. After
// UNANSWERED_AFTER_MS such a payment is marked FAILED ("no answer …, nothing was charged"). It is safe because the
// provider's webhook would have told us long before if it had charged, and if it ever does (a webhook delivered late)
// the success still wins: the payment state machine lets SUCCEEDED follow FAILED, and the credit is added.
// Auto top-ups are not touched: theirs is resumed with the same idempotency key (maybe-trigger-auto-top-up.ts).
import { db } from '@/server/db';
import { markPaymentFailed } from './settle-payment';

/** How long a direct purchase may wait for the provider's answer (Stripe's client gives up after 3 × 20 s). */
export const UNANSWERED_AFTER_MS = 15 * 60_000;

export const UNANSWERED_REASON = 'no answer from the payment provider within 15 minutes; nothing was charged';

/** One sweep (a housekeeping step of the reservation sweeper): how many payments it marked failed. */
export async function failUnansweredPurchases(now = new Date()): Promise<number> {
  const prisma = await db();
  const stale = await prisma.payment.findMany({
    where: { status: 'PENDING', kind: 'DIRECT', providerPaymentId: null, createdAt: { lt: new Date(now.getTime() - UNANSWERED_AFTER_MS) } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: 100,
  });
  let failed = 0;
  for (const p of stale) {
    const outcome = await markPaymentFailed({ ref: { paymentId: p.id }, reason: UNANSWERED_REASON });
    if (outcome) failed++;
  }
  return failed;
}
