import { z } from 'zod';
import { defineEndpoint } from '@/server/http/openapi/registry';
import { createWebhookInput } from './create-webhook';
import { listDeliveriesQuery } from './list-webhook-deliveries';
import { MAX_PENDING_TEST_DELIVERIES } from './send-webhook-test-event';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from './webhook-events';

const tags = ['Webhooks'];

const webhookSchema = z
  .object({
    id: z.string(),
    account_id: z.string(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    created_at: z.string(),
  })
  .meta({ id: 'Webhook' });

const deliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string().describe('The webhook-id header: the same on every attempt'),
    event_type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE]).describe('`webhook.test`: a test event asked for with POST …/webhooks/{webhookId}/test'),
    status: z.enum(['pending', 'succeeded', 'failed']).describe('failed: every attempt of the retry schedule failed'),
    attempts: z.number().int(),
    last_http_status: z.number().int().nullable().describe("The receiver's last HTTP status (null: no answer)"),
    last_error: z.string().nullable(),
    event_created_at: z.string(),
    created_at: z.string(),
    last_attempt_at: z.string().nullable(),
    next_attempt_at: z.string().nullable().describe('When the next attempt is due (null once succeeded or failed)'),
    delivered_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const createdSchema = z.object({
  data: webhookSchema,
  secret: z.string().describe('The Standard Webhooks signing secret (whsec_…): returned this once, never again'),
});

const description =
  'Events are POSTed as JSON `{ id, type, timestamp, account_id, data }`, signed per the Standard Webhooks specification ' +
  '(headers `webhook-id`, `webhook-timestamp`, `webhook-signature`; verify with the `standardwebhooks` library and the secret). ' +
  'A non-2xx answer is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. URLs resolving to private, loopback or link-local ' +
  'addresses are refused (400) unless the operator set WEBHOOK_ALLOW_PRIVATE=1; the rule is checked again at each delivery.';

for (const scope of [
  { base: '/organizations/{id}', who: 'owner, admin', errors: [403, 404] },
  { base: '/users/{id}', who: 'your personal account', errors: [403, 404] },
]) {
  const params = z.object({ id: z.string().describe(scope.base.startsWith('/users') ? 'Your user id, or `me`' : 'The organization id') });
  const itemParams = params.extend({ webhookId: z.string() });
  defineEndpoint({ method: 'get', path: `${scope.base}/webhooks`, summary: `Webhooks (${scope.who})`, tags, params, response: z.object({ data: z.array(webhookSchema) }), errors: scope.errors });
  defineEndpoint({
    method: 'post',
    path: `${scope.base}/webhooks`,
    summary: `Create a webhook (${scope.who})`,
    description: `${description} At most 20 webhooks per account (409).`,
    tags,
    params,
    body: createWebhookInput,
    response: createdSchema,
    status: 201,
    errors: [...scope.errors, 409, 503],
  });
  defineEndpoint({
    method: 'delete',
    path: `${scope.base}/webhooks/{webhookId}`,
    summary: `Delete a webhook (${scope.who})`,
    description: 'Its delivery log goes with it; deliveries not yet made are dropped.',
    tags,
    params: itemParams,
    response: z.object({ deleted: z.literal(true), data: webhookSchema }),
    errors: scope.errors,
  });
  defineEndpoint({
    method: 'post',
    path: `${scope.base}/webhooks/{webhookId}/test`,
    summary: `Send a test event to a webhook (${scope.who})`,
    description:
      'Queues a `webhook.test` event for this webhook only (whatever events it subscribes to), signed and retried like every other event; ' +
      'the answer is its delivery, which then shows in the delivery log. The event\'s `data` is `{ webhook_id, requested_by, message }`. ' +
      `While ${MAX_PENDING_TEST_DELIVERIES} test deliveries to the webhook are still pending, another is refused (429).`,
    tags,
    params: itemParams,
    response: z.object({ data: deliverySchema }),
    status: 202,
    errors: [...scope.errors, 429],
  });
  defineEndpoint({
    method: 'get',
    path: `${scope.base}/webhooks/{webhookId}/deliveries`,
    summary: `A webhook's delivery log (${scope.who})`,
    description: 'Newest first, kept 30 days: each event sent to this webhook, its attempts, status, last HTTP status and error.',
    tags,
    params: itemParams,
    query: listDeliveriesQuery,
    response: z.object({ data: z.array(deliverySchema), has_more: z.boolean(), next_cursor: z.string().nullable() }),
    errors: scope.errors,
  });
}
