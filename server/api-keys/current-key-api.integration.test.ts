// GET /api/v1/key and GET /api/v1/credits through HTTP, after real requests through the gateway (the priced
// echo model of test/fixtures/priced-echo.yaml): every number equals what the ledger holds, to the micro-dollar.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { grantCredits } from '@/server/ledger/balance';
import { currentWindowStart } from '@/server/ledger/reserve';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

const micros = (usd: number) => Math.round(usd * 1e6);

describeEachDatabase('REST GET /api/v1/key and /api/v1/credits', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(async () => {
    await api?.runtime.settlements.flush();
    await api?.close();
  });

  const chat = async (key: string, content: string, maxTokens = 50) => {
    const res = await call('POST', '/chat/completions', key, { model: 'switchboard/echo', messages: [{ role: 'user', content }], max_tokens: maxTokens, stream: false });
    expect(res.status).toBe(200);
  };

  async function ledgerOf(accountId: string) {
    const prisma = await db();
    const entries = await prisma.ledgerEntry.findMany({ where: { accountId }, select: { kind: true, amountMicros: true } });
    const usage = entries.filter((e) => e.kind === 'USAGE').reduce((s, e) => s - e.amountMicros, 0n);
    const credits = entries.filter((e) => e.kind !== 'USAGE').reduce((s, e) => s + e.amountMicros, 0n);
    const account = await prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { paidMicros: true, promoMicros: true } });
    return { usage, credits, balance: account.paidMicros + account.promoMicros };
  }

  it('after gateway requests: usage, limit_remaining and the credit totals equal the ledger to the micro-dollar', async () => {
    const u = await testUser('metered');
    await grantCredits({ accountId: u.personalAccountId, amountMicros: 3_000_000n, idempotencyKey: `seed:${u.id}`, kind: 'ADJUSTMENT' });
    const { key, apiKey } = await createApiKey({ userId: u.id, input: { name: 'Metered', credit_limit: 1, limit_reset: 'daily', rate_limit_rpm: 42 } });
    const other = await createApiKey({ userId: u.id, input: { name: 'Other' } });

    const before = await call('GET', '/key', key);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      data: { label: apiKey.hint, usage: 0, limit: 1, limit_remaining: 1, limit_reset: 'daily', expires_at: null, is_free_tier: true, rate_limit: { requests: 42, interval: '1m' } },
    });

    for (const text of ['hello there', 'a somewhat longer message to echo back', 'x'.repeat(300)]) await chat(key, text);
    await chat(other.key, 'spent by another key of the same account');
    await api.runtime.settlements.flush();

    const prisma = await db();
    const keyUsage = await prisma.usageRecord.aggregate({ where: { apiKeyId: apiKey.id }, _sum: { costMicros: true } });
    const spentByKey = keyUsage._sum.costMicros ?? 0n;
    expect(spentByKey).toBeGreaterThan(0n);
    const ledger = await ledgerOf(u.personalAccountId);

    const after = (await call('GET', '/key', key)).body.data;
    expect(BigInt(micros(after.usage))).toBe(spentByKey);
    expect(BigInt(micros(after.limit_remaining))).toBe(1_000_000n - spentByKey);

    const credits = await call('GET', '/credits', key);
    expect(credits.status).toBe(200);
    expect(BigInt(micros(credits.body.data.total_usage))).toBe(ledger.usage);
    expect(BigInt(micros(credits.body.data.total_credits))).toBe(ledger.credits);
    expect(ledger.credits).toBe(3_000_000n);
    expect(ledger.credits - ledger.usage).toBe(ledger.balance);
    expect(ledger.usage).toBeGreaterThan(spentByKey); // the other key's request is the account's usage, not this key's
    // An account token acts for the same account: the same totals.
    expect((await call('GET', '/credits', u.token)).body).toEqual(credits.body);
  });

  it('limit_remaining counts the current window only; no limit → nulls; the server default rate limit', async () => {
    const u = await testUser('windows');
    const limited = await createApiKey({ userId: u.id, input: { name: 'Weekly', credit_limit: 2, limit_reset: 'weekly' } });
    const prisma = await db();
    const weekStart = currentWindowStart('WEEKLY', new Date());
    await prisma.apiKey.update({ where: { id: limited.apiKey.id }, data: { windowSpentMicros: 500_000n, windowStartedAt: weekStart, totalSpentMicros: 1_250_000n } });
    expect((await call('GET', '/key', limited.key)).body.data).toMatchObject({ usage: 1.25, limit: 2, limit_remaining: 1.5, limit_reset: 'weekly' });
    // The spend happened last week: this week's window is untouched.
    await prisma.apiKey.update({ where: { id: limited.apiKey.id }, data: { windowStartedAt: new Date(weekStart.getTime() - 1) } });
    expect((await call('GET', '/key', limited.key)).body.data).toMatchObject({ usage: 1.25, limit_remaining: 2 });
    expect((await call('GET', '/api-keys', u.token)).body.data.find((k: { id: string }) => k.id === limited.apiKey.id).usage_in_window).toBe(0);

    const expires = new Date(Date.now() + 86_400_000);
    const open = await createApiKey({ userId: u.id, input: { name: 'Open', expires_at: expires } });
    expect((await call('GET', '/key', open.key)).body.data).toEqual({
      label: open.apiKey.hint,
      usage: 0,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      expires_at: expires.toISOString(),
      is_free_tier: true,
      rate_limit: { requests: env().RATE_LIMIT_RPM, interval: '1m' },
    });
  });

  it('is_free_tier turns false once the account bought credit', async () => {
    const u = await testUser('buyer');
    const { key } = await createApiKey({ userId: u.id, input: { name: 'k' } });
    await grantCredits({ accountId: u.personalAccountId, amountMicros: 1_000_000n, idempotencyKey: `gift:${u.id}`, kind: 'ADJUSTMENT' });
    expect((await call('GET', '/key', key)).body.data.is_free_tier).toBe(true);
    await grantCredits({ accountId: u.personalAccountId, amountMicros: 5_000_000n, idempotencyKey: `bought:${u.id}`, kind: 'PURCHASE' });
    expect((await call('GET', '/key', key)).body.data.is_free_tier).toBe(false);
    expect((await call('GET', '/credits', key)).body.data).toEqual({ total_credits: 6, total_usage: 0 });
  });

  it('/key needs an API key (400 for an account token, 401 without credential); /credits of an organization needs billing:read', async () => {
    const u = await testUser('tokened');
    const res = await call('GET', '/key', u.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/API key/), metadata: { reason: 'not_an_api_key' } });
    expect((await call('GET', '/key', null)).status).toBe(401);
    expect((await call('GET', '/credits', null)).status).toBe(401);

    const w = await organizationWorld('Credited');
    await grantCredits({ accountId: w.organizationId, amountMicros: 4_000_000n, idempotencyKey: `org:${w.organizationId}`, kind: 'PURCHASE' });
    const memberKey = await createApiKey({ userId: w.member.id, input: { name: 'm', account_id: w.organizationId } });
    const billingKey = await createApiKey({ userId: w.billing.id, input: { name: 'b', account_id: w.organizationId } });
    const refused = await call('GET', '/credits', memberKey.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ required_permission: 'billing:read' });
    expect((await call('GET', '/credits', billingKey.key)).body.data).toEqual({ total_credits: 4, total_usage: 0 });
    // A member's key still learns about itself, and that its organization bought credit.
    expect((await call('GET', '/key', memberKey.key)).body.data).toMatchObject({ usage: 0, is_free_tier: false });
  });
});
