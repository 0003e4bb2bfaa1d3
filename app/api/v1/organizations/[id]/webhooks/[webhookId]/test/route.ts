import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { sendWebhookTestEvent } from '@/server/webhooks/send-webhook-test-event';

export const dynamic = 'force-dynamic';

/** Queues a signed `webhook.test` event for this webhook only; 202 with its delivery (see the delivery log). */
export const POST = apiRoute<{ id: string; webhookId: string }>(
  async ({ principal, params }) => {
    const accountId = (await authorizeOrganization(principal, params.id, 'webhooks:manage')).accountId;
    return sendWebhookTestEvent({ accountId, webhookId: params.webhookId, userId: principal.userId });
  },
  { status: 202 },
);
