import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { createWebhook, createWebhookInput } from '@/server/webhooks/create-webhook';
import { listWebhooks } from '@/server/webhooks/list-webhooks';

export const dynamic = 'force-dynamic';

// A personal account's webhooks: the user only.

export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const accountId = (await authorizeUser(principal, params.id)).personalAccountId;
  return listWebhooks({ accountId });
});

/** The signing secret is in this answer only. */
export const POST = apiRoute<{ id: string }>(
  async ({ request, principal, params }) => {
    const accountId = (await authorizeUser(principal, params.id)).personalAccountId;
    return createWebhook({ accountId, userId: principal.userId, input: await parseBody(request, createWebhookInput) });
  },
  { status: 201 },
);
