// GET …/webhooks: an account's webhooks, oldest first.
import { db } from '@/server/db';
import { toWebhookDto, webhookSelect, type WebhookDto } from './webhook-dto';

export async function listWebhooks(p: { accountId: string }): Promise<{ data: WebhookDto[] }> {
  const prisma = await db();
  const rows = await prisma.webhook.findMany({ where: { accountId: p.accountId }, select: webhookSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return { data: rows.map(toWebhookDto) };
}
