// Webhooks through HTTP: who may manage them (organizations: owners and admins; /users/{id}: the user), the
// secret shown once and stored encrypted, audit entries, the private-address rule at creation and at delivery,
// events of keys and members reaching a local receiver that verifies every signature with the
// `standardwebhooks` library, retries with backoff and the delivery log, and two workers sharing the work.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decryptSecret } from '@/server/crypto/secret-box';
import { db, Prisma } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { seedPlans } from '@/server/seed';
import { jsonClient, organizationWorld, testUser, uniqueEmail, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { startWebhookReceiver, type WebhookReceiver } from '@/test/webhook-receiver';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker';

describeEachDatabase('webhooks through HTTP', () => {
  let api: ApiServer;
  let receiver: WebhookReceiver;
  /** Driven by runOnce only (its timer is an hour): each test decides when deliveries happen. */
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

  async function createHook(base: string, token: string, events: string[], label = 'hook') {
    const path = receiver.path(label);
    const res = await call('POST', `${base}/webhooks`, token, { url: `${receiver.origin}${path}`, events });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    receiver.setSecret(path, res.body.secret);
    return { id: res.body.data.id as string, path, secret: res.body.secret as string };
  }

  /** Runs worker rounds until `done` holds (each round: fan-out, crossing check, deliveries). */
  async function deliverUntil(done: () => boolean | Promise<boolean>, w: WebhookWorker = worker) {
    for (let i = 0; i < 300 && !(await done()); i++) await w.runOnce();
    expect(await done()).toBe(true);
  }

  it('organizations: owners and admins manage webhooks; the secret is returned once and stored encrypted; audited', async () => {
    const w = await organizationWorld('Hooked');
    const base = `/organizations/${w.organizationId}`;
    const created = await call('POST', `${base}/webhooks`, w.owner.token, { url: `${receiver.origin}/x`, events: ['key.created', 'balance.low', 'key.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: { id: expect.any(String), account_id: w.organizationId, url: `${receiver.origin}/x`, events: ['key.created', 'balance.low'], created_at: expect.any(String) },
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret } = created.body;
    const id = created.body.data.id;

    const listed = await call('GET', `${base}/webhooks`, w.admin.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([created.body.data]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(6, 20));
    expect((await call('POST', `${base}/webhooks`, w.admin.token, { url: `${receiver.origin}/y`, events: ['member.joined'] })).status).toBe(201);

    // Billing managers and members may not; strangers do not learn it exists.
    expect((await call('GET', `${base}/webhooks`, w.billing.token)).status).toBe(403);
    expect((await call('POST', `${base}/webhooks`, w.member.token, { url: `${receiver.origin}/z`, events: ['key.created'] })).status).toBe(403);
    expect((await call('GET', `${base}/webhooks`, w.stranger.token)).status).toBe(404);
    expect((await call('DELETE', `${base}/webhooks/${id}`, w.stranger.token)).status).toBe(404);
    expect((await call('GET', `${base}/webhooks/${id}/deliveries`, w.member.token)).status).toBe(403);

    // Stored encrypted: readable to sign, not in clear.
    const prisma = await db();
    const row = await prisma.webhook.findUniqueOrThrow({ where: { id } });
    expect(row.encryptedSecret).not.toContain(secret.slice(6));
    expect(decryptSecret(row.encryptedSecret)).toBe(secret);

    const audit = await prisma.auditLogEntry.findFirstOrThrow({ where: { accountId: w.organizationId, action: 'webhook.create', targetId: id } });
    // Who and from where come from the audit context the edges set (server/audit); the entry is this service's.
    expect(audit).toMatchObject({ targetType: 'webhook', before: null });
    expect(audit.after).toMatchObject({ id, url: `${receiver.origin}/x` });
    expect(JSON.stringify(audit)).not.toContain('whsec_');

    const deleted = await call('DELETE', `${base}/webhooks/${id}`, w.admin.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, data: { id } });
    expect((await call('DELETE', `${base}/webhooks/${id}`, w.admin.token)).status).toBe(404);
    expect((await call('GET', `${base}/webhooks/${id}/deliveries`, w.admin.token)).status).toBe(404);
    expect((await call('GET', `${base}/webhooks`, w.owner.token)).body.data.map((h: any) => h.id)).not.toContain(id);
    expect(await prisma.auditLogEntry.count({ where: { accountId: w.organizationId, action: 'webhook.delete', targetId: id, after: { equals: Prisma.JsonNull } } })).toBe(1);
  });

  it('/users/{id}/webhooks: the user only, for their personal account; bad input is a 400', async () => {
    const u = await testUser('solo');
    const other = await testUser('other');
    const hook = await call('POST', '/users/me/webhooks', u.token, { url: `${receiver.origin}/solo`, events: ['key.created'] });
    expect(hook.status).toBe(201);
    expect(hook.body.data.account_id).toBe(u.personalAccountId);
    expect((await call('GET', `/users/${u.id}/webhooks`, u.token)).body.data).toHaveLength(1);
    expect((await call('GET', `/users/${u.id}/webhooks`, other.token)).status).toBe(404);
    expect((await call('DELETE', `/users/me/webhooks/${hook.body.data.id}`, other.token)).status).toBe(404);
    expect((await call('GET', `/users/me/webhooks/${hook.body.data.id}/deliveries`, other.token)).status).toBe(404);
    for (const body of [
      { url: `${receiver.origin}/a`, events: [] },
      { url: `${receiver.origin}/a`, events: ['key.exploded'] },
      { url: 'ftp://example.com/hook', events: ['key.created'] },
      { url: 'not a url', events: ['key.created'] },
      { events: ['key.created'] },
      { url: `${receiver.origin}/a`, events: ['key.created'], secret: 'mine' },
    ]) {
      const res = await call('POST', '/users/me/webhooks', u.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('private, loopback and link-local URLs are refused without WEBHOOK_ALLOW_PRIVATE, at creation and again at delivery', async () => {
    const u = await testUser('private');
    const localhostPath = receiver.path('rebound');
    const literalPath = receiver.path('literal');
    // Created while allowed (as if the name had resolved to a public address then)…
    const byName = await createHook('/users/me', u.token, ['key.created'], 'rebound');
    await call('DELETE', `/users/me/webhooks/${byName.id}`, u.token);
    const port = new URL(receiver.origin).port;
    const rebound = await call('POST', '/users/me/webhooks', u.token, { url: `http://localhost:${port}${localhostPath}`, events: ['key.created'] });
    const literal = await call('POST', '/users/me/webhooks', u.token, { url: `${receiver.origin}${literalPath}`, events: ['key.created'] });
    expect([rebound.status, literal.status]).toEqual([201, 201]);
    receiver.setSecret(localhostPath, rebound.body.secret);
    receiver.setSecret(literalPath, literal.body.secret);

    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    resetEnvCache();
    try {
      for (const url of [`${receiver.origin}/hook`, `http://localhost:${port}/hook`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:8080/', 'http://10.0.0.8/hook', 'http://[::ffff:127.0.0.1]/']) {
        const res = await call('POST', '/users/me/webhooks', u.token, { url, events: ['key.created'] });
        expect(res.status, url).toBe(400);
        expect(res.body.error.message).toMatch(/private, loopback or link-local/);
      }
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = '1';
      resetEnvCache();
    }

    // …and refused when delivering by a worker without the switch: the name now resolves to loopback.
    const strict = startWebhookWorker({ pollIntervalMs: 3_600_000, allowPrivate: false, retryDelaysMs: [20, 20, 20] });
    try {
      await call('POST', '/api-keys', u.token, { name: 'trigger' });
      const prisma = await db();
      const attempted = async () => (await prisma.webhookDelivery.count({ where: { webhookId: { in: [rebound.body.data.id, literal.body.data.id] }, attempts: { gte: 1 } } })) === 2;
      await deliverUntil(attempted, strict);
    } finally {
      await strict.stop();
    }
    for (const [hook, pattern] of [[rebound, /refused: localhost resolves only to private/], [literal, /refused: 127\.0\.0\.1 is a private/]] as const) {
      const log = await call('GET', `/users/me/webhooks/${hook.body.data.id}/deliveries`, u.token);
      expect(log.body.data).toEqual([expect.objectContaining({ event_type: 'key.created', status: 'pending', attempts: 1, last_http_status: null, last_error: expect.stringMatching(pattern) })]);
    }
    expect(receiver.received.filter((r) => r.path === localhostPath || r.path === literalPath)).toEqual([]);

    // With the switch on, the same deliveries go through on their next attempt.
    await deliverUntil(() => receiver.on(localhostPath).length === 1 && receiver.on(literalPath).length === 1);
    const log = await call('GET', `/users/me/webhooks/${rebound.body.data.id}/deliveries`, u.token);
    expect(log.body.data[0]).toMatchObject({ status: 'succeeded', attempts: 2, last_http_status: 204, last_error: null, delivered_at: expect.any(String) });
  });

  it('key.created, key.deleted, member.joined and member.removed reach the subscribed webhooks, signed, once each', async () => {
    const w = await organizationWorld('Eventful');
    const prisma = await db();
    await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 20, provider: 'SANDBOX' } });
    const base = `/organizations/${w.organizationId}`;
    const all = await createHook(base, w.owner.token, ['key.created', 'key.deleted', 'member.joined', 'member.removed'], 'all');
    const joins = await createHook(base, w.admin.token, ['member.joined'], 'joins');

    const ownerKey = await call('POST', '/api-keys', w.owner.token, { name: 'ci', account_id: w.organizationId });
    expect(ownerKey.status).toBe(201);
    expect((await call('DELETE', `/api-keys/${ownerKey.body.data.id}`, w.owner.token)).status).toBe(200);
    const memberKey = await call('POST', '/api-keys', w.member.token, { name: 'laptop', account_id: w.organizationId });
    const personalKey = await call('POST', '/api-keys', w.member.token, { name: 'personal' }); // another account: not this webhook's

    const email = uniqueEmail('joiner');
    const joiner: TestUser = await testUser('joiner', email);
    const invite = await call('POST', `${base}/invites`, w.admin.token, { emails: [email] });
    const token = invite.body.data[0].link.split('/invite/')[1];
    expect((await call('POST', '/invites/accept', joiner.token, { token })).status).toBe(200);
    expect((await call('DELETE', `${base}/members`, w.admin.token, { member_ids: [w.member.id] })).status).toBe(200);

    await deliverUntil(() => receiver.on(all.path).length >= 6 && receiver.on(joins.path).length >= 1);
    for (let i = 0; i < 3; i++) await worker.runOnce(); // more rounds send nothing more
    const received = receiver.received.filter((r) => r.path === all.path || r.path === joins.path);
    expect(received.every((r) => r.error === null && r.payload !== null)).toBe(true);
    expect(received.every((r) => r.headers['webhook-id'] === r.payload!.id && r.headers['content-type'] === 'application/json')).toBe(true);

    // The member's removal writes key.deleted and member.removed in one transaction: on PostgreSQL both get the
    // transaction's now(), and webhooks promise no order between events of the same instant (receivers order
    // by timestamp or dedupe by id), so those two are compared in the order written by sorting them by type.
    const received6 = receiver.on(all.path);
    const events = [...received6.slice(0, 4), ...received6.slice(4).sort((a, b) => (a.type === 'key.deleted' ? -1 : b.type === 'key.deleted' ? 1 : 0))];
    expect(events.map((e) => e.type)).toEqual(['key.created', 'key.deleted', 'key.created', 'member.joined', 'key.deleted', 'member.removed']);
    expect(new Set(events.map((e) => e.id)).size).toBe(6);
    expect(events.every((e) => e.account_id === w.organizationId)).toBe(true);
    expect(events[0].data).toEqual({ api_key: { id: ownerKey.body.data.id, name: 'ci', hint: ownerKey.body.data.hint, user_id: w.owner.id, credit_limit: null, limit_reset: 'never', expires_at: null } });
    expect(events[1].data).toEqual({ api_key: { id: ownerKey.body.data.id, name: 'ci', hint: ownerKey.body.data.hint, user_id: w.owner.id }, deleted_by: w.owner.id, reason: 'deleted' });
    expect(events[3].data).toEqual({ member: { user_id: joiner.id, email, role: 'member' }, via: 'invite' });
    expect(events[4].data).toMatchObject({ api_key: { id: memberKey.body.data.id, user_id: w.member.id }, deleted_by: w.admin.id, reason: 'member_removed' });
    expect(events[5].data).toEqual({ member: { user_id: w.member.id, email: w.member.email, role: 'member' }, removed_by: w.admin.id, revoked_api_keys: 1 });
    expect(JSON.stringify(events)).not.toContain(personalKey.body.data.id);
    expect(receiver.on(joins.path).map((e) => e.type)).toEqual(['member.joined']);
    expect(receiver.on(joins.path)[0].id).toBe(events[3].id); // one event, the same id at every endpoint

    // A member who deletes their user leaves too: their organization key and membership go.
    const billingKey = await call('POST', '/api-keys', w.billing.token, { name: 'books', account_id: w.organizationId });
    expect((await call('DELETE', '/users/me', w.billing.token)).status).toBe(200);
    await deliverUntil(() => receiver.on(all.path).length >= 9);
    await worker.runOnce();
    const after = receiver.on(all.path).slice(6);
    expect(after.map((e) => e.type)).toEqual(['key.created', 'key.deleted', 'member.removed']);
    expect(after[1].data).toMatchObject({ api_key: { id: billingKey.body.data.id, user_id: w.billing.id }, deleted_by: w.billing.id, reason: 'member_removed' });
    expect(after[2].data).toEqual({ member: { user_id: w.billing.id, email: w.billing.email, role: 'billing' }, removed_by: w.billing.id, revoked_api_keys: 1 });
  });

  it('a receiver that fails is retried with backoff until it answers 2xx; the delivery log shows the attempts', async () => {
    const u = await testUser('flaky');
    const flaky = await createHook('/users/me', u.token, ['key.created'], 'flaky');
    receiver.answer(flaky.path, [500, 503]);
    // This worker runs on its own timer, as in the server.
    const timed = startWebhookWorker({ pollIntervalMs: 50, retryDelaysMs: [150, 150, 150] });
    try {
      await call('POST', '/api-keys', u.token, { name: 'retried' });
      await receiver.waitFor((all) => all.filter((r) => r.path === flaky.path).length === 3);
    } finally {
      await timed.stop();
    }
    const attempts = receiver.received.filter((r) => r.path === flaky.path);
    expect(attempts.map((r) => r.status)).toEqual([500, 503, 204]);
    expect(attempts.every((r) => r.payload !== null)).toBe(true); // each attempt signed anew, each verifies
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const gaps = attempts.slice(1).map((r, i) => Number(r.headers['webhook-timestamp']) - Number(attempts[i].headers['webhook-timestamp']));
    expect(gaps.every((g) => g >= 0)).toBe(true);
    const log = await call('GET', `/users/me/webhooks/${flaky.id}/deliveries`, u.token);
    expect(log.body).toEqual({
      data: [expect.objectContaining({ event_id: attempts[0].payload!.id, event_type: 'key.created', status: 'succeeded', attempts: 3, last_http_status: 204, last_error: null, next_attempt_at: null, delivered_at: expect.any(String) })],
      has_more: false,
      next_cursor: null,
    });

    // A receiver that never recovers: the delivery fails once the schedule is used up (here 4 attempts).
    const down = await createHook('/users/me', u.token, ['key.created'], 'down');
    receiver.answer(down.path, Array(10).fill(500));
    await call('POST', '/api-keys', u.token, { name: 'lost' });
    const prisma = await db();
    await deliverUntil(async () => (await prisma.webhookDelivery.count({ where: { webhookId: down.id, status: 'FAILED' } })) === 1);
    const failed = await call('GET', `/users/me/webhooks/${down.id}/deliveries?status=failed`, u.token);
    expect(failed.body.data).toEqual([expect.objectContaining({ status: 'failed', attempts: 4, last_http_status: 500, last_error: 'HTTP 500: receiver says 500', next_attempt_at: null, delivered_at: null })]);
    expect(receiver.received.filter((r) => r.path === down.path)).toHaveLength(4);
  });

  it('two workers (two server processes) share the deliveries: every event arrives once', async () => {
    const u = await testUser('shared');
    const hook = await createHook('/users/me', u.token, ['key.created'], 'shared');
    const other = startWebhookWorker({ pollIntervalMs: 3_600_000 });
    try {
      await Promise.all(Array.from({ length: 12 }, (_, i) => call('POST', '/api-keys', u.token, { name: `k${i}` })));
      for (let i = 0; i < 100 && receiver.on(hook.path).length < 12; i++) await Promise.all([worker.runOnce(), other.runOnce()]);
      for (let i = 0; i < 3; i++) await Promise.all([worker.runOnce(), other.runOnce()]);
    } finally {
      await other.stop();
    }
    const got = receiver.on(hook.path);
    expect(got).toHaveLength(12);
    expect(new Set(got.map((e) => e.id)).size).toBe(12);
    const prisma = await db();
    expect(await prisma.webhookDelivery.findMany({ where: { webhookId: hook.id }, select: { status: true, attempts: true } })).toEqual(Array(12).fill({ status: 'SUCCEEDED', attempts: 1 }));
  });
});
