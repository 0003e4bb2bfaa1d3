// POST …/webhooks/{webhookId}/test: a `webhook.test` event for this one endpoint, so its owner can check the
// URL and their signature verification without waiting for a real event. The event goes into the outbox
// already marked dispatched (no other webhook receives it, whatever it subscribes to) together with its one
// delivery; the worker then sends it like any other: signed per Standard Webhooks, retried on the same
// schedule, listed in the delivery log.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { newEventId } from './record-account-event';
import { deliverySelect, toDeliveryDto, type DeliveryDto } from './webhook-dto';
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookTestEventData } from './webhook-events';

/** Test deliveries still waiting for a 2xx on one webhook; beyond this, a new test waits (429). */
export const MAX_PENDING_TEST_DELIVERIES = 5;

export async function sendWebhookTestEvent(p: { accountId: string; webhookId: string; userId: string }): Promise<{ data: DeliveryDto }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // FOR UPDATE: two tests at once count each other against the cap.
    const found = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "Webhook" WHERE id = ${p.webhookId} AND "accountId" = ${p.accountId} FOR UPDATE`;
    if (found.length === 0) throw new AppError('not_found', 'Webhook not found');
    const pending = await tx.webhookDelivery.count({ where: { webhookId: p.webhookId, status: 'PENDING', event: { type: WEBHOOK_TEST_EVENT_TYPE } } });
    if (pending >= MAX_PENDING_TEST_DELIVERIES) {
      throw new AppError('rate_limited', `${pending} test events to this webhook are still waiting to be delivered; try again once they are`, { pending });
    }
    const now = new Date();
    const data: WebhookTestEventData = { webhook_id: p.webhookId, requested_by: p.userId, message: 'A test event from Switchboard: your endpoint received and can verify it.' };
    const event = await tx.accountEvent.create({ data: { id: newEventId(), accountId: p.accountId, type: WEBHOOK_TEST_EVENT_TYPE, data: { ...data }, dispatchedAt: now }, select: { id: true } });
    const delivery = await tx.webhookDelivery.create({ data: { webhookId: p.webhookId, eventId: event.id, nextAttemptAt: now }, select: deliverySelect });
    return { data: toDeliveryDto(delivery) };
  });
}
