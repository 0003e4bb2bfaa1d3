// DELETE …/webhooks/{webhookId}: the webhook and its delivery log go; deliveries not yet made are dropped.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { toWebhookDto, webhookSelect, type WebhookDto } from './webhook-dto';

export async function deleteWebhook(p: { accountId: string; webhookId: string }): Promise<{ deleted: true; data: WebhookDto }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const found = await tx.webhook.findFirst({ where: { id: p.webhookId, accountId: p.accountId }, select: webhookSelect });
    if (!found) throw new AppError('not_found', 'Webhook not found');
    const gone = await tx.webhook.deleteMany({ where: { id: found.id } });
    if (gone.count === 0) throw new AppError('not_found', 'Webhook not found'); // deleted meanwhile
    const dto = toWebhookDto(found);
    await recordAudit(tx, { accountId: p.accountId, action: 'webhook.delete', target: { type: 'webhook', id: found.id }, before: dto, after: null });
    return { deleted: true as const, data: dto };
  });
}
