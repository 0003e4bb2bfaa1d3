import { apiRoute, parseQuery } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { listDeliveriesQuery, listWebhookDeliveries } from '@/server/webhooks/list-webhook-deliveries';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string; webhookId: string }>(async ({ request, principal, params }) => {
  const accountId = (await authorizeUser(principal, params.id)).personalAccountId;
  return listWebhookDeliveries({ accountId, webhookId: params.webhookId, query: parseQuery(request, listDeliveriesQuery) });
});
