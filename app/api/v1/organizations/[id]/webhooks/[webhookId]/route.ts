import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { deleteWebhook } from '@/server/webhooks/delete-webhook';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ id: string; webhookId: string }>(async ({ principal, params }) => {
  const accountId = (await authorizeOrganization(principal, params.id, 'webhooks:manage')).accountId;
  return deleteWebhook({ accountId, webhookId: params.webhookId });
});
