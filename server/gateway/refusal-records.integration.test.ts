// Requests refused at admission (402, 429, 503 before any provider is called) leave a usage record of
// status REFUSED through the real HTTP gateway, written by the settlement queue's batches, and nothing else:
// no balance, reservation, key or member spend moves, and the usage totals, groups and metrics leave them out.
// A request without a valid credential (401) has no account and leaves nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { getGeneration } from '@/server/usage/get-generation';
import { getUsageMetrics } from '@/server/usage/get-usage-metrics';
import { queryUsage, type UsageGroups, type UsagePage } from '@/server/usage/query-usage';
import { userUsageScope } from '@/server/usage/usage-scope';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('chat completions: refused requests are recorded, never charged', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h?.close());

  const post = (body: unknown, key: string, headers: Record<string, string> = {}) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
    });
  const echo = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false };
  const gpt = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: false };

  async function spendState(u: Awaited<ReturnType<typeof fundedUser>>) {
    const prisma = await db();
    const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: u.apiKey.id }, select: { windowSpentMicros: true, totalSpentMicros: true } });
    const ledger = await prisma.ledgerEntry.count({ where: { accountId: u.user.personal_account_id } });
    return { balance: await getBalanceOrThrow(u.user.personal_account_id), key, ledger };
  }

  it('402 (both admission paths) is recorded with its status, error, key, user, app and model; the balance is untouched', async () => {
    const poor = await fundedUser(0);
    const before = await spendState(poor);
    const small = await post(echo, poor.key, { 'x-title': 'Refusal Test' });
    expect(small.status).toBe(402);
    const requestId = small.headers.get('x-request-id');
    // Over 256 KiB: authenticated first, then reserved (reserveCredits) — the other admission path.
    const big = await post({ ...echo, messages: [{ role: 'user', content: 'x'.repeat(300 * 1024) }] }, poor.key);
    expect(big.status).toBe(402);
    // 401: no account to record it on.
    expect((await post(echo, generateSecret(TOKEN_PREFIX.apiKey))).status).toBe(401);
    await h.runtime.settlements.flush();

    const rows = await (await db()).usageRecord.findMany({ where: { accountId: poor.user.personal_account_id }, orderBy: { createdAt: 'asc' } });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'REFUSED', httpStatus: 402, errorCode: 'payment_required', costMicros: 0n, promptTokens: 0, completionTokens: 0, model: 'switchboard/echo', userId: poor.user.id, apiKeyId: poor.apiKey.id });
      expect(r.errorMessage).toMatch(/Insufficient credits/);
    }
    expect(rows[0]).toMatchObject({ xTitle: 'Refusal Test', requestId });
    expect(await spendState(poor)).toEqual(before);

    // GET /generation opens it; the usage list shows it only when asked; aggregates never count it.
    const generation = await getGeneration({ userId: poor.user.id, generationId: rows[0]!.id });
    expect(generation).toMatchObject({ status: 'refused', http_status: 402, total_cost: 0, error: { code: 'payment_required' }, app_title: 'Refusal Test' });
    const scope = userUsageScope(poor.user.id);
    expect(((await queryUsage({ scope, query: { limit: 50 } })) as UsagePage).data).toHaveLength(0);
    expect(((await queryUsage({ scope, query: { limit: 50, include_refused: true } })) as UsagePage).data.map((d) => d.status)).toEqual(['refused', 'refused']);
    expect(((await queryUsage({ scope, query: { limit: 50, status: 'refused' } })) as UsagePage).data).toHaveLength(2);
    expect(((await queryUsage({ scope, query: { limit: 1, group_by: 'day' } })) as UsageGroups).data).toEqual([]);
    expect((await getUsageMetrics({ scope, query: { interval: 'day' } })).totals.requests).toBe(0);
  });

  it('429 from the key rate limit is recorded on the key; the successful requests alone are charged', async () => {
    await h.renewRuntime({ rateLimitRpm: 2, redisUrl: null });
    try {
      const u = await fundedUser(10);
      for (let i = 0; i < 2; i++) expect((await post(echo, u.key)).status).toBe(200);
      await h.runtime.settlements.flush();
      const before = await spendState(u);
      expect((await post(echo, u.key)).status).toBe(429);
      await h.runtime.settlements.flush();
      expect(await spendState(u)).toEqual(before);
      const prisma = await db();
      expect(await prisma.usageRecord.count({ where: { accountId: u.user.personal_account_id, status: 'SUCCESS', httpStatus: 200 } })).toBe(2);
      const refused = await prisma.usageRecord.findFirstOrThrow({ where: { accountId: u.user.personal_account_id, status: 'REFUSED' } });
      expect(refused).toMatchObject({ httpStatus: 429, errorCode: 'rate_limited', apiKeyId: u.apiKey.id, costMicros: 0n });
      const metrics = await getUsageMetrics({ scope: userUsageScope(u.user.id), query: { interval: 'day' } });
      expect(metrics.totals.requests).toBe(2);
    } finally {
      await h.renewRuntime();
    }
  });

  it('503 when no endpoint is available (every key cooling) is recorded; the failed upstream 429 before it as an error; nothing is charged', async () => {
    const u = await fundedUser(10);
    const before = await spendState(u);
    h.respond = () => ({ status: 429, json: { error: { message: 'quota' } }, headers: { 'retry-after': '30' } });
    try {
      expect((await post(gpt, u.key)).status).toBe(429);
      const res = await post(gpt, u.key);
      expect(res.status).toBe(503);
      await h.runtime.settlements.flush();
      expect(await spendState(u)).toEqual(before);
      // By status: a settlement's record is stamped when written, a refusal's when it was answered.
      const rows = await (await db()).usageRecord.findMany({ where: { accountId: u.user.personal_account_id }, orderBy: { status: 'asc' } });
      expect(rows.map((r) => [r.status, r.httpStatus, r.costMicros])).toEqual([
        ['ERROR', 429, 0n],
        ['REFUSED', 503, 0n],
      ]);
      expect(rows[1]).toMatchObject({ model: 'openai/gpt-4o-mini', provider: 'openai', requestId: res.headers.get('x-request-id') });
    } finally {
      h.respond = replay('openai', 'text');
      await h.renewRuntime();
    }
  });
});
