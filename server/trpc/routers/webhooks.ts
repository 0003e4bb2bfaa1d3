// The active account's webhooks and their delivery log; same permission and services as
// /api/v1/{organizations,users}/{id}/webhooks. The signing secret is in create's answer only.
import { z } from 'zod';
import { createWebhook, createWebhookInput } from '@/server/webhooks/create-webhook';
import { deleteWebhook } from '@/server/webhooks/delete-webhook';
import { listDeliveriesQuery, listWebhookDeliveries } from '@/server/webhooks/list-webhook-deliveries';
import { listWebhooks } from '@/server/webhooks/list-webhooks';
import { sendWebhookTestEvent } from '@/server/webhooks/send-webhook-test-event';
import { safeString } from '@/server/validation/fields';
import { accountProcedure, router } from '../init';

const webhookId = safeString().min(1).max(100);

export const webhooksRouter = router({
  list: accountProcedure('webhooks:manage').query(({ ctx }) => listWebhooks({ accountId: ctx.access.accountId })),
  create: accountProcedure('webhooks:manage')
    .input(createWebhookInput)
    .mutation(({ ctx, input }) => createWebhook({ accountId: ctx.access.accountId, userId: ctx.principal.userId, input })),
  delete: accountProcedure('webhooks:manage')
    .input(z.object({ id: webhookId }))
    .mutation(({ ctx, input }) => deleteWebhook({ accountId: ctx.access.accountId, webhookId: input.id })),
  sendTest: accountProcedure('webhooks:manage')
    .input(z.object({ id: webhookId }))
    .mutation(({ ctx, input }) => sendWebhookTestEvent({ accountId: ctx.access.accountId, webhookId: input.id, userId: ctx.principal.userId })),
  deliveries: accountProcedure('webhooks:manage')
    .input(listDeliveriesQuery.extend({ webhook_id: webhookId }))
    .query(({ ctx, input }) => {
      const { webhook_id, ...query } = input;
      return listWebhookDeliveries({ accountId: ctx.access.accountId, webhookId: webhook_id, query });
    }),
});
