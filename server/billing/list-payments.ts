// Payment history of an account, newest first, keyset-paginated (stable while new payments arrive).
// Abandoned checkouts are left out once they expire (the provider said so, or their 24-hour session
// lifetime has passed without word): nothing was charged and nothing can be. Cancelled ones stay, as
// cancelled: the buyer chose that and may look for it.
import { db, type Prisma } from '@/server/db';
import { CHECKOUT_EXPIRED } from './fulfil-checkout';
import { encodeCursor, listPaymentsQuery, olderThan, type ListPaymentsQuery } from './billing-inputs';
import { paymentSelect, toPaymentDto, type PaymentDto } from './payment-dto';

export interface PaymentPage {
  data: PaymentDto[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Stripe's default Checkout Session lifetime, and the sandbox's (SANDBOX_SESSION_TTL_MS). */
export const CHECKOUT_SESSION_TTL_MS = 24 * 3600_000;

/** Checkouts that ended, or must have ended, unpaid by expiry. */
export function expiredCheckouts(now: Date): Prisma.PaymentWhereInput {
  return {
    kind: 'CHECKOUT',
    creditedAt: null,
    OR: [{ status: 'CANCELED', failureReason: CHECKOUT_EXPIRED }, { status: 'PENDING', createdAt: { lt: new Date(now.getTime() - CHECKOUT_SESSION_TTL_MS) } }],
  };
}

export async function listPayments(p: { accountId: string; query: Partial<ListPaymentsQuery> }): Promise<PaymentPage> {
  const q = listPaymentsQuery.parse(p.query);
  const prisma = await db();
  const rows = await prisma.payment.findMany({
    where: { accountId: p.accountId, ...(q.status ? { status: q.status.toUpperCase() as never } : {}), ...olderThan(q.cursor), NOT: expiredCheckouts(new Date()) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: paymentSelect,
  });
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return { data: page.map(toPaymentDto), has_more: hasMore, next_cursor: hasMore ? encodeCursor(page[page.length - 1]) : null };
}
