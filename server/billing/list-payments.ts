// Payment history of an account, newest first, keyset-paginated (stable while new payments arrive).
import { db } from '@/server/db';
import { encodeCursor, listPaymentsQuery, olderThan, type ListPaymentsQuery } from './billing-inputs';
import { paymentSelect, toPaymentDto, type PaymentDto } from './payment-dto';

export interface PaymentPage {
  data: PaymentDto[];
  has_more: boolean;
  next_cursor: string | null;
}

export async function listPayments(p: { accountId: string; query: Partial<ListPaymentsQuery> }): Promise<PaymentPage> {
  const q = listPaymentsQuery.parse(p.query);
  const prisma = await db();
  const rows = await prisma.payment.findMany({
    where: { accountId: p.accountId, ...(q.status ? { status: q.status.toUpperCase() as never } : {}), ...olderThan(q.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: paymentSelect,
  });
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return { data: page.map(toPaymentDto), has_more: hasMore, next_cursor: hasMore ? encodeCursor(page[page.length - 1]) : null };
}
