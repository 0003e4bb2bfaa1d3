import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { sendWebhookTestEvent } from '@/server/webhooks/send-webhook-test-event';

export const dynamic = 'force-dynamic';

/** Queues a signed `webhook.test` event for this webhook only; 202 with its delivery (see the delivery log). */
export const POST = apiRoute<{ id: string; webhookId: string }>(
  async ({ principal, params }) => {
    const { userId, personalAccountId } = await authorizeUser(principal, params.id);
    return sendWebhookTestEvent({ accountId: personalAccountId, webhookId: params.webhookId, userId });
  },
  { status: 202 },
);
