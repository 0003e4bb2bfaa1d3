// "Send test event" through HTTP: POST …/webhooks/{webhookId}/test answers 202 with a delivery that a local
// receiver gets signed per Standard Webhooks (verified with the `standardwebhooks` library), for that one
// webhook only, and that the delivery log lists; the same authorization as managing the webhook (a member
// without the role: 403; another organization, a stranger: 404); a cap on pending test deliveries (429).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { seedPlans } from '@/server/seed';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { startWebhookReceiver, type WebhookReceiver } from '@/test/webhook-receiver';
import { MAX_PENDING_TEST_DELIVERIES } from './send-webhook-test-event';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker';

describeEachDatabase('sending a test event to a webhook', () => {
  let api: ApiServer;
  let receiver: WebhookReceiver;
  /** Driven by runOnce only: each test decides when deliveries happen. */
  let worker: WebhookWorker;
  const call = jsonClient(() => api.origin);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    process.env.WEBHOOK_ALLOW_PRIVATE = '1'; // the receiver is on 127.0.0.1
    resetEnvCache();
    api = await startApiServer();
    await seedPlans();
    worker = startWebhookWorker({ pollIntervalMs: 3_600_000, retryDelaysMs: [50, 50, 50] });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await receiver?.close();
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    resetEnvCache();
  });

  async function createHook(base: string, token: string, events: string[], label: string) {
    const path = receiver.path(label);
    const res = await call('POST', `${base}/webhooks`, token, { url: `${receiver.origin}${path}`, events });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    receiver.setSecret(path, res.body.secret);
    return { id: res.body.data.id as string, path };
  }

  async function deliverUntil(done: () => boolean) {
    for (let i = 0; i < 300 && !done(); i++) await worker.runOnce();
    expect(done()).toBe(true);
  }

  it('organizations: 202 with the delivery; a signed webhook.test reaches that webhook only and shows in its log', async () => {
    const w = await organizationWorld('Tested');
    const base = `/organizations/${w.organizationId}`;
    const tested = await createHook(base, w.owner.token, ['member.joined'], 'tested');
    const sibling = await createHook(base, w.owner.token, ['member.joined', 'key.created'], 'sibling');

    const res = await call('POST', `${base}/webhooks/${tested.id}/test`, w.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ id: expect.any(String), event_id: expect.stringMatching(/^msg_/), event_type: 'webhook.test', status: 'pending', attempts: 0 });
    const deliveryId = res.body.data.id as string;

    await deliverUntil(() => receiver.on(tested.path).length === 1);
    const [received] = receiver.received.filter((r) => r.path === tested.path);
    expect(received.error).toBeNull(); // the signature verified with the webhook's secret
    expect(received.headers['webhook-id']).toBe(res.body.data.event_id);
    expect(received.payload).toMatchObject({
      id: res.body.data.event_id,
      type: 'webhook.test',
      account_id: w.organizationId,
      data: { webhook_id: tested.id, requested_by: w.admin.id, message: expect.any(String) },
    });

    const log = await call('GET', `${base}/webhooks/${tested.id}/deliveries`, w.owner.token);
    expect(log.status).toBe(200);
    expect(log.body.data).toEqual([expect.objectContaining({ id: deliveryId, event_type: 'webhook.test', status: 'succeeded', attempts: 1, last_http_status: 204 })]);

    // Nothing for the other webhook, in its log or at its receiver, though the account's events fan out to it.
    await worker.runOnce();
    expect(receiver.received.filter((r) => r.path === sibling.path)).toEqual([]);
    expect((await call('GET', `${base}/webhooks/${sibling.id}/deliveries`, w.owner.token)).body.data).toEqual([]);
  });

  it('the same authorization as managing the webhook: members and billing managers 403, strangers and other organizations 404', async () => {
    const w = await organizationWorld('Guarded');
    const other = await organizationWorld('Elsewhere');
    const base = `/organizations/${w.organizationId}`;
    const hook = await createHook(base, w.owner.token, ['key.created'], 'guarded');
    const otherHook = await createHook(`/organizations/${other.organizationId}`, other.owner.token, ['key.created'], 'elsewhere');

    for (const persona of [w.member, w.billing]) {
      const res = await call('POST', `${base}/webhooks/${hook.id}/test`, persona.token);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 403, message: expect.any(String) });
    }
    expect((await call('POST', `${base}/webhooks/${hook.id}/test`, w.stranger.token)).status).toBe(404);
    expect((await call('POST', `${base}/webhooks/${hook.id}/test`, null)).status).toBe(401);
    // Another organization's webhook through this organization's path, and a webhook that does not exist.
    const foreign = await call('POST', `${base}/webhooks/${otherHook.id}/test`, w.owner.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 404, message: 'Webhook not found' });
    expect((await call('POST', `${base}/webhooks/no-such-webhook/test`, w.owner.token)).status).toBe(404);
    expect((await call('POST', `/organizations/${other.organizationId}/webhooks/${otherHook.id}/test`, w.owner.token)).status).toBe(404);

    // None of the refused calls queued anything.
    const prisma = await db();
    expect(await prisma.webhookDelivery.count({ where: { webhookId: { in: [hook.id, otherHook.id] } } })).toBe(0);
  });

  it('/users/{id}/webhooks/{webhookId}/test: the user, for their personal account; pending tests are capped (429)', async () => {
    const u = await testUser('solo-tester');
    const other = await testUser('other-tester');
    const hook = await createHook('/users/me', u.token, ['key.created'], 'solo');
    expect((await call('POST', `/users/me/webhooks/${hook.id}/test`, other.token)).status).toBe(404);
    expect((await call('POST', `/users/${u.id}/webhooks/${hook.id}/test`, other.token)).status).toBe(404);

    // The receiver refuses for now: the tests stay pending, and past the cap another is refused.
    // (Four attempts each with this worker's three retry delays.)
    receiver.answer(hook.path, Array(4 * MAX_PENDING_TEST_DELIVERIES).fill(500));
    const ids: string[] = [];
    for (let n = 0; n < MAX_PENDING_TEST_DELIVERIES; n++) {
      const res = await call('POST', `/users/${u.id}/webhooks/${hook.id}/test`, u.token);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(res.body.data.id);
    }
    const refused = await call('POST', `/users/me/webhooks/${hook.id}/test`, u.token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 429, metadata: { pending: MAX_PENDING_TEST_DELIVERIES } });

    // Retried like any delivery until every attempt failed; then a test may be sent again, and it arrives.
    const prisma = await db();
    await deliverUntil(() => receiver.received.filter((r) => r.path === hook.path).length >= 4 * MAX_PENDING_TEST_DELIVERIES);
    for (let i = 0; i < 50 && (await prisma.webhookDelivery.count({ where: { id: { in: ids }, status: 'PENDING' } })) > 0; i++) await worker.runOnce();
    expect(await prisma.webhookDelivery.count({ where: { id: { in: ids }, status: 'FAILED' } })).toBe(MAX_PENDING_TEST_DELIVERIES);
    const again = await call('POST', `/users/me/webhooks/${hook.id}/test`, u.token);
    expect(again.status).toBe(202);
    await deliverUntil(() => receiver.received.some((r) => r.path === hook.path && r.status === 204 && r.payload?.type === 'webhook.test' && r.error === null));
    const log = await call('GET', `/users/me/webhooks/${hook.id}/deliveries?status=failed`, u.token);
    expect(log.body.data.map((d: { id: string }) => d.id).sort()).toEqual([...ids].sort());
  });
});
