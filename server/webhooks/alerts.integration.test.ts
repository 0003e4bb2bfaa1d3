// Alerts: balance.low and limit.threshold found off the chat path by the worker's crossing check, exactly one
// event per crossing (again only after going back below or a new window), also with several checkers at
// once; payment events where payments settle; and the alert emails received by a fake SMTP server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chargeAutoTopUp } from '@/server/billing/charge-auto-top-up';
import { resetPaymentProvider } from '@/server/billing/payment-provider';
import { markPaymentFailed, markPaymentSucceeded } from '@/server/billing/settle-payment';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { grantCredits } from '@/server/ledger/balance';
import { newRowId, reserveCredits } from '@/server/ledger/reserve';
import { settleGeneration } from '@/server/ledger/settle-generation';
import { jsonClient, organizationWorld } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestUser } from '@/test/factories';
import { readableMail, startFakeSmtp } from '@/test/fake-smtp';
import { startWebhookReceiver, type WebhookReceiver } from '@/test/webhook-receiver';
import { checkAlertCrossings } from './check-alert-crossings';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker';

const usage = { model: 'switchboard/echo', provider: 'echo', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status: 'SUCCESS' as const, streamed: false };

/** Spends exactly `micros` on an account (and key) through the ledger services: reserve, then settle at that cost. */
async function spend(accountId: string, micros: bigint, apiKeyId?: string) {
  const generationId = `gen-alert-${newRowId()}`;
  await reserveCredits({ accountId, amountMicros: micros, generationId, ...(apiKeyId ? { apiKey: { id: apiKeyId } } : {}) });
  await settleGeneration({ generationId, accountId, costMicros: micros, usage: { ...usage, apiKeyId: apiKeyId ?? null } });
}

describeEachDatabase('alerts: balance.low, limit.threshold, payments; webhooks and email', () => {
  let api: ApiServer;
  let receiver: WebhookReceiver;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let worker: WebhookWorker;
  const call = jsonClient(() => api.origin);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    smtp = await startFakeSmtp();
    process.env.SMTP_URL = `${smtp.url}?from=${encodeURIComponent('Switchboard <alerts@switchboard.test>')}`;
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    delete process.env.STRIPE_SECRET_KEY; // payments through the sandbox provider
    resetEnvCache();
    resetPaymentProvider();
    api = await startApiServer();
    worker = startWebhookWorker({ pollIntervalMs: 3_600_000, retryDelaysMs: [50, 50, 50] });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.runtime.settlements.flush();
    await api?.close();
    await receiver?.close();
    await smtp?.close();
    delete process.env.SMTP_URL;
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    resetEnvCache();
  });

  async function createHook(base: string, token: string, events: string[]) {
    const path = receiver.path('alerts');
    const res = await call('POST', `${base}/webhooks`, token, { url: `${receiver.origin}${path}`, events });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    receiver.setSecret(path, res.body.secret);
    return { id: res.body.data.id as string, path };
  }

  /** Worker rounds (each: crossing check, fan-out, deliveries, emails) until `done` holds. */
  async function runUntil(done: () => boolean | Promise<boolean>) {
    for (let i = 0; i < 300 && !(await done()); i++) await worker.runOnce();
    expect(await done()).toBe(true);
  }
  const rounds = async (n: number) => {
    for (let i = 0; i < n; i++) await worker.runOnce();
  };
  const mailTo = (email: string, subject: RegExp) => smtp.messages.filter((m) => m.to.some((t) => t.includes(email)) && subject.test(readableMail(m).subject));
  const eventsOf = async (accountId: string, type: string) => (await db()).accountEvent.count({ where: { accountId, type } });

  it('limit.threshold: a key passing 80 % through real requests, then 100 %, sends one event each, once; again only in a new window', async () => {
    const u = await createTestUser(10);
    const accountId = u.user.personal_account_id;
    const key = await createTestKey(u.user.id, accountId, { credit_limit: 0.0005, limit_reset: 'daily' }); // 500 µ$
    const hook = await createHook('/users/me', u.key, ['limit.threshold']);
    const prisma = await db();
    const window = async () => (await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id }, select: { windowSpentMicros: true } })).windowSpentMicros;

    // Echo at $1/M tokens: each request costs ~100 µ$ (prompt + echoed words) and holds a little more.
    const content = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    for (let i = 0; i < 10 && (await window()) * 100n < 500n * 80n; i++) {
      const res = await fetch(`${api.origin}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content }], max_tokens: 50 }),
      });
      expect(res.status).toBe(200);
      await res.text();
      await api.runtime.settlements.flush();
    }
    const spent = await window();
    expect(spent * 100n).toBeGreaterThanOrEqual(500n * 80n);
    expect(spent).toBeLessThan(500n);

    await runUntil(() => receiver.on(hook.path).length === 1);
    await rounds(3);
    expect(receiver.on(hook.path)).toHaveLength(1);
    const [at80] = receiver.on(hook.path);
    expect(at80).toMatchObject({
      type: 'limit.threshold',
      account_id: accountId,
      data: { subject: 'api_key', api_key: { id: key.id, name: 'test', user_id: u.user.id }, threshold_percent: 80, limit: 0.0005, spent: Number(spent) / 1e6, limit_reset: 'daily' },
    });

    // The rest of the limit, exactly, through the ledger (a request's hold always exceeds its cost, so real
    // requests stop short of 100 %).
    await spend(accountId, 500n - spent, key.id);
    expect(await window()).toBe(500n);
    await runUntil(() => receiver.on(hook.path).length === 2);
    await rounds(3);
    expect(receiver.on(hook.path).map((e) => e.data.threshold_percent)).toEqual([80, 100]);
    expect(await eventsOf(accountId, 'limit.threshold')).toBe(2);
    expect(mailTo(u.user.email, /reached 80% of its spend limit/)).toHaveLength(1);
    expect(mailTo(u.user.email, /reached 100% of its spend limit/)).toHaveLength(1);

    // The window rolls over (yesterday's spend): both levels clear, and the new window's 80 % is an event again.
    await prisma.apiKey.update({ where: { id: key.id }, data: { windowStartedAt: new Date(Date.now() - 2 * 86_400_000) } });
    await rounds(2);
    expect(await prisma.alertCrossing.count({ where: { subjectId: key.id } })).toBe(0);
    expect(await eventsOf(accountId, 'limit.threshold')).toBe(2);
    await spend(accountId, 400n, key.id);
    await runUntil(() => receiver.on(hook.path).length === 3);
    await rounds(2);
    expect(receiver.on(hook.path).map((e) => e.data.threshold_percent)).toEqual([80, 100, 80]);
    expect(receiver.received.filter((r) => r.path === hook.path).every((r) => r.payload !== null)).toBe(true);
  });

  it('limit.threshold for a member’s spend limit in an organization', async () => {
    const w = await organizationWorld('Budgeted');
    const hook = await createHook(`/organizations/${w.organizationId}`, w.owner.token, ['limit.threshold']);
    const prisma = await db();
    // The member's window as admission and settlement keep it (Membership.windowSpentMicros): 90 % of $2 this month.
    await prisma.membership.update({
      where: { organizationId_userId: { organizationId: w.organizationId, userId: w.member.id } },
      data: { spendLimitMicros: 2_000_000n, limitReset: 'MONTHLY', windowSpentMicros: 1_800_000n, windowStartedAt: new Date() },
    });
    await runUntil(() => receiver.on(hook.path).length === 1);
    await rounds(2);
    expect(receiver.on(hook.path)).toEqual([
      expect.objectContaining({ type: 'limit.threshold', data: expect.objectContaining({ subject: 'member', member: { user_id: w.member.id, email: w.member.email }, threshold_percent: 80, limit: 2, spent: 1.8, limit_reset: 'monthly' }) }),
    ]);
    await runUntil(() => mailTo(w.owner.email, new RegExp(`member ${w.member.email.replace(/[.+]/g, '\\$&')} reached 80%`)).length === 1);
  });

  it('balance.low: one event per fall below settings.low_balance_usd, even with several checkers at once; owners and billing managers are emailed', async () => {
    const w = await organizationWorld('Thrifty');
    const accountId = w.organizationId;
    await grantCredits({ accountId, amountMicros: 10_000_000n, idempotencyKey: `seed:${accountId}` });
    const set = await call('PUT', `/organizations/${accountId}`, w.admin.token, { settings: { low_balance_usd: 5 } });
    expect(set.status).toBe(200);
    expect(set.body.settings).toMatchObject({ low_balance_usd: 5 });
    expect((await call('PUT', `/organizations/${accountId}`, w.admin.token, { settings: { low_balance_usd: -1 } })).status).toBe(400);
    const hook = await createHook(`/organizations/${accountId}`, w.owner.token, ['balance.low', 'key.created']);

    await rounds(1);
    expect(await eventsOf(accountId, 'balance.low')).toBe(0); // $10 is above the threshold

    await spend(accountId, 6_500_000n); // $3.50 left
    const other = startWebhookWorker({ pollIntervalMs: 3_600_000 });
    try {
      // Two server processes and stray checks at the same moment: one event.
      await Promise.all([checkAlertCrossings(), checkAlertCrossings(), worker.runOnce(), other.runOnce(), checkAlertCrossings()]);
      await Promise.all([worker.runOnce(), other.runOnce()]);
    } finally {
      await other.stop();
    }
    expect(await eventsOf(accountId, 'balance.low')).toBe(1);
    await runUntil(() => receiver.on(hook.path).length === 1);
    expect(receiver.on(hook.path)[0]).toMatchObject({ type: 'balance.low', account_id: accountId, data: { balance: 3.5, threshold: 5 } });
    await runUntil(() => mailTo(w.owner.email, /Thrifty: balance below \$5\.00/).length === 1 && mailTo(w.billing.email, /balance below/).length === 1);
    const mail = mailTo(w.owner.email, /balance below/)[0];
    expect(mail.to.join(' ')).toContain(w.billing.email);
    expect(mail.to.join(' ')).not.toContain(w.admin.email);
    expect(mail.to.join(' ')).not.toContain(w.member.email);
    expect(readableMail(mail).text).toContain('The balance of Thrifty is $3.50, below the alert threshold of $5.00.');

    // Spending more while still below: nothing new. Back above, then below again: a second event.
    await spend(accountId, 500_000n);
    await rounds(2);
    expect(await eventsOf(accountId, 'balance.low')).toBe(1);
    await grantCredits({ accountId, amountMicros: 4_000_000n, idempotencyKey: `top-up:${accountId}` }); // $7
    await rounds(1);
    await spend(accountId, 3_000_000n); // $4
    await runUntil(() => receiver.on(hook.path).length === 2);
    await rounds(2);
    expect(receiver.on(hook.path).map((e) => e.data.balance)).toEqual([3.5, 4]);
    expect(await eventsOf(accountId, 'balance.low')).toBe(2);
  });

  it('balance.low for a personal account: the threshold is the user’s settings.low_balance_usd (PATCH /users/me)', async () => {
    const u = await createTestUser(1);
    const accountId = u.user.personal_account_id;
    const hook = await createHook('/users/me', u.key, ['balance.low']);
    const patched = await call('PATCH', '/users/me', u.key, { settings: { low_balance_usd: 2 } });
    expect(patched.status).toBe(200);
    expect(patched.body.settings).toEqual({ low_balance_usd: 2 });
    expect((await call('PATCH', '/users/me', u.key, { settings: { low_balance_usd: 2, colour: 'red' } })).status).toBe(400);
    await runUntil(() => receiver.on(hook.path).length === 1);
    expect(receiver.on(hook.path)[0]).toMatchObject({ type: 'balance.low', account_id: accountId, data: { balance: 1, threshold: 2 } });
    await runUntil(() => mailTo(u.user.email, /balance below \$2\.00/).length === 1);

    // Cleared (null): no alert any more, and the crossing is forgotten.
    expect((await call('PATCH', '/users/me', u.key, { settings: { low_balance_usd: null } })).body.settings).toEqual({});
    await rounds(2);
    expect(await (await db()).alertCrossing.count({ where: { subjectId: accountId } })).toBe(0);
    expect(await eventsOf(accountId, 'balance.low')).toBe(1);
  });

  it('payment.succeeded, payment.failed and auto_top_up.failed where payments settle, once each; an auto top-up failure is emailed once', async () => {
    const u = await createTestUser(0);
    const accountId = u.user.personal_account_id;
    const hook = await createHook('/users/me', u.key, ['payment.succeeded', 'payment.failed', 'auto_top_up.failed']);
    const prisma = await db();
    const payment = (kind: 'DIRECT' | 'AUTO_TOP_UP', cents: number) =>
      prisma.payment.create({ data: { accountId, provider: 'SANDBOX', kind, creditMicros: BigInt(cents) * 10_000n, amountCents: cents } });

    const paid = await payment('DIRECT', 1500);
    await Promise.all([markPaymentSucceeded({ ref: { paymentId: paid.id } }), markPaymentSucceeded({ ref: { paymentId: paid.id } })]);
    const declined = await payment('DIRECT', 900);
    await markPaymentFailed({ ref: { paymentId: declined.id }, reason: 'card_declined' });
    await markPaymentFailed({ ref: { paymentId: declined.id }, reason: 'card_declined' });
    // An auto top-up in flight whose charge is declined: auto top-up is switched off, reported once.
    const topUp = await payment('AUTO_TOP_UP', 2000);
    await prisma.autoTopUp.create({ data: { accountId, enabled: true, inFlightPaymentId: topUp.id } });
    await markPaymentFailed({ ref: { paymentId: topUp.id }, reason: 'insufficient_funds' });
    await markPaymentFailed({ ref: { paymentId: topUp.id }, reason: 'insufficient_funds' });
    expect(await prisma.autoTopUp.findUniqueOrThrow({ where: { accountId } })).toMatchObject({ enabled: false, inFlightPaymentId: null });
    // Switched on again with no card to charge: that failure is reported too.
    await prisma.autoTopUp.update({ where: { accountId }, data: { enabled: true, disabledReason: null } });
    expect(await chargeAutoTopUp(accountId)).toBeNull();

    await runUntil(() => receiver.on(hook.path).length === 5);
    await rounds(2);
    const events = receiver.on(hook.path);
    expect(events.map((e) => e.type)).toEqual(['payment.succeeded', 'payment.failed', 'payment.failed', 'auto_top_up.failed', 'auto_top_up.failed']);
    expect(events[0].data).toEqual({ payment: { id: paid.id, kind: 'direct', status: 'succeeded', amount_cents: 1500, credit: 15 } });
    expect(events[1].data).toEqual({ payment: { id: declined.id, kind: 'direct', status: 'failed', amount_cents: 900, credit: 9 }, reason: 'card_declined' });
    expect(events[2].data).toMatchObject({ payment: { id: topUp.id, kind: 'auto_top_up' }, reason: 'insufficient_funds' });
    expect(events[3].data).toEqual({ reason: 'insufficient_funds', payment_id: topUp.id });
    expect(events[4].data).toEqual({ reason: 'No saved payment method to charge', payment_id: null });

    await runUntil(async () => (await prisma.alertEmail.count({ where: { event: { accountId }, status: 'PENDING' } })) === 0);
    expect(mailTo(u.user.email, /a payment of \$9\.00 failed/)).toHaveLength(1);
    expect(mailTo(u.user.email, /auto top-up failed/)).toHaveLength(2);
    expect(mailTo(u.user.email, /a payment of \$20\.00 failed/)).toHaveLength(0); // said by the auto top-up email
    expect(mailTo(u.user.email, /succeeded/)).toHaveLength(0); // not an alert
  });
});
