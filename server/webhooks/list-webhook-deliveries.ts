// GET …/webhooks/{webhookId}/deliveries: the delivery log, newest first, keyset-paginated.
import { z } from 'zod';
import { encodeCursor, listQuery, olderThan } from '@/server/billing/billing-inputs';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { deliverySelect, toDeliveryDto, type DeliveryDto } from './webhook-dto';

export const listDeliveriesQuery = listQuery.extend({
  status: z.enum(['pending', 'succeeded', 'failed']).optional().describe('Only deliveries in this state'),
});
export type ListDeliveriesQuery = z.input<typeof listDeliveriesQuery>;

export async function listWebhookDeliveries(p: { accountId: string; webhookId: string; query: ListDeliveriesQuery }): Promise<{ data: DeliveryDto[]; has_more: boolean; next_cursor: string | null }> {
  const q = listDeliveriesQuery.parse(p.query);
  const prisma = await db();
  const webhook = await prisma.webhook.findFirst({ where: { id: p.webhookId, accountId: p.accountId }, select: { id: true } });
  if (!webhook) throw new AppError('not_found', 'Webhook not found');
  const rows = await prisma.webhookDelivery.findMany({
    where: { webhookId: webhook.id, ...(q.status ? { status: q.status.toUpperCase() as 'PENDING' } : {}), ...olderThan(q.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: deliverySelect,
  });
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return { data: page.map(toDeliveryDto), has_more: hasMore, next_cursor: hasMore ? encodeCursor(page[page.length - 1]) : null };
}
