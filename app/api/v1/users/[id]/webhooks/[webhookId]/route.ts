import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { deleteWebhook } from '@/server/webhooks/delete-webhook';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ id: string; webhookId: string }>(async ({ principal, params }) => {
  const accountId = (await authorizeUser(principal, params.id)).personalAccountId;
  return deleteWebhook({ accountId, webhookId: params.webhookId });
});
