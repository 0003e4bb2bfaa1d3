// Requests refused at admission (402, 429, 503 before any provider is called) leave a usage record of
// status REFUSED through the real HTTP gateway, written by the settlement queue's batches, and nothing else:
// no balance, reservation, key or member spend moves, and the usage totals, groups and metrics leave them out.
// A request refused by what admission learns with its reservation (a key's lowered rate limit, an unreadable
// saved provider key) reads the same: its reservation is settled as REFUSED at no charge.
// A request without a valid credential (401) has no account and leaves nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db, Prisma } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { getGeneration } from '@/server/usage/get-generation';
import { getUsageMetrics } from '@/server/usage/get-usage-metrics';
import { queryUsage, type UsageGroups, type UsagePage } from '@/server/usage/query-usage';
import { userUsageScope } from '@/server/usage/usage-scope';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization } from '@/test/factories';
import { fundedUser, replay, settleAndReturnLeases, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

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

  /** Every balance and spend figure a charge or an unreleased hold would move, the leases returned first. */
  async function moneyState(accountId: string, apiKeyId: string) {
    await settleAndReturnLeases(h);
    const prisma = await db();
    const account = await prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { paidMicros: true, promoMicros: true, reservedMicros: true } });
    const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: apiKeyId }, select: { windowSpentMicros: true, totalSpentMicros: true } });
    const ledger = await prisma.ledgerEntry.count({ where: { accountId } });
    return { account, key, ledger };
  }

  /** Counts the metrics' refusals and generations by HTTP status while `run` runs. */
  async function metricsDuring(run: () => Promise<void>) {
    const m = h.runtime.metrics;
    const { refused, generation } = m;
    const seen = { refused: [] as number[], generation: [] as number[] };
    m.refused = (status) => (seen.refused.push(status), refused.call(m, status));
    m.generation = (sample) => (seen.generation.push(sample.status), generation.call(m, sample));
    try {
      await run();
    } finally {
      Object.assign(m, { refused, generation });
    }
    return seen;
  }

  /** What the usage API shows of a refusal, but the model (a refusal before the body was read has none). */
  const asListed = (d: UsagePage['data'][number]) => ({
    status: d.status,
    http_status: d.http_status,
    finish_reason: d.finish_reason,
    error_code: d.error?.code,
    cost_micros: d.cost_micros,
    total_tokens: d.total_tokens,
    attempts: d.attempts,
    byok: d.byok,
    api_key_id: d.api_key_id,
    user_id: d.user_id,
  });

  it('429 from a key rate limit lowered meanwhile (learned with the reservation) is settled as a refusal: REFUSED, nothing charged, the hold released', async () => {
    const u = await fundedUser(10);
    for (let i = 0; i < 2; i++) expect((await post(echo, u.key)).status).toBe(200);
    await (await db()).apiKey.update({ where: { id: u.apiKey.id }, data: { rateLimitRpm: 1 } });
    const before = await moneyState(u.user.personal_account_id, u.apiKey.id);
    let afterReservation!: Response;
    let onMemory!: Response;
    const metrics = await metricsDuring(async () => {
      // The limiter has not learned the limit: admitted, reserved, and refused by the limit the statement read.
      afterReservation = await post(echo, u.key, { 'x-title': 'Lowered' });
      expect(afterReservation.status).toBe(429);
      expect(afterReservation.headers.get('retry-after')).toBeTruthy();
      expect((await afterReservation.json()).error.metadata).toMatchObject({ limit_per_minute: 1 });
      // Over the limit it learned: one request goes to admission again to learn if it was raised (refused there),
      await post(echo, u.key).then((r) => expect(r.status).toBe(429));
      // the next within the second is refused on memory, before any reservation.
      onMemory = await post(echo, u.key);
      expect(onMemory.status).toBe(429);
      await h.runtime.settlements.flush();
    });
    expect(metrics).toEqual({ refused: [429, 429, 429], generation: [] });
    expect(await moneyState(u.user.personal_account_id, u.apiKey.id)).toEqual(before);

    const prisma = await db();
    const generationId = afterReservation.headers.get('x-generation-id')!;
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId }, select: { status: true, settledMicros: true } })).toEqual({ status: 'SETTLED', settledMicros: 0n });
    expect(await prisma.reservation.count({ where: { apiKeyId: u.apiKey.id, status: 'ACTIVE' } })).toBe(0);
    const row = await prisma.usageRecord.findUniqueOrThrow({ where: { id: generationId } });
    expect(row).toMatchObject({ status: 'REFUSED', httpStatus: 429, errorCode: 'rate_limited', costMicros: 0n, finishReason: null, attempts: 0, upstreamModel: '', model: 'switchboard/echo', xTitle: 'Lowered', requestId: afterReservation.headers.get('x-request-id') });
    expect(row.errorMessage).toMatch(/1 requests per minute/);

    // Listed as any refusal: only with include_refused, as the one refused on memory, out of every total.
    const scope = userUsageScope(u.user.id);
    expect(((await queryUsage({ scope, query: { limit: 50 } })) as UsagePage).data.map((d) => d.status)).toEqual(['success', 'success']);
    const listed = ((await queryUsage({ scope, query: { limit: 50, status: 'refused' } })) as UsagePage).data;
    expect(listed).toHaveLength(3);
    const admitted = listed.find((d) => d.id === generationId)!;
    const memoryRow = await prisma.usageRecord.findFirstOrThrow({ where: { requestId: onMemory.headers.get('x-request-id') }, select: { id: true } });
    const memory = listed.find((d) => d.id === memoryRow.id)!;
    expect(asListed(admitted)).toEqual(asListed(memory));
    expect(asListed(admitted)).toMatchObject({ status: 'refused', http_status: 429, finish_reason: null, error_code: 'rate_limited', cost_micros: '0' });
    expect(await getGeneration({ userId: u.user.id, generationId })).toMatchObject({ status: 'refused', http_status: 429, total_cost: 0, upstream_model: '', error: { code: 'rate_limited' } });
    expect((await getUsageMetrics({ scope, query: { interval: 'day' } })).totals.requests).toBe(2);
  });

  it('503 for the account’s unreadable saved provider key (learned with the reservation, both admission paths) is settled as REFUSED; nothing charged, the hold released', async () => {
    const u = await fundedUser(10);
    const prisma = await db();
    await prisma.providerKey.create({ data: { accountId: u.user.personal_account_id, provider: 'openai', encryptedKey: 'not-an-encrypted-secret', hint: 'sk-…' } });
    const before = await moneyState(u.user.personal_account_id, u.apiKey.id);
    const upstreamCalls = h.upstream.requests.length;
    const refusals: Response[] = [];
    const metrics = await metricsDuring(async () => {
      refusals.push(await post(gpt, u.key));
      // Over 256 KiB: authenticated first, then reserved (reserveCredits) — the other admission path.
      refusals.push(await post({ ...gpt, messages: [{ role: 'user', content: 'x'.repeat(300 * 1024) }] }, u.key));
      for (const r of refusals) {
        expect(r.status).toBe(503);
        expect((await r.json()).error.metadata).toMatchObject({ provider: 'openai', byok: true });
      }
      await h.runtime.settlements.flush();
    });
    expect(metrics).toEqual({ refused: [503, 503], generation: [] });
    expect(await moneyState(u.user.personal_account_id, u.apiKey.id)).toEqual(before);
    expect(h.upstream.requests.length).toBe(upstreamCalls); // nothing was attempted

    const ids = refusals.map((r) => r.headers.get('x-generation-id')!);
    const reservations = await prisma.reservation.findMany({ where: { generationId: { in: ids } }, select: { status: true, settledMicros: true } });
    expect(reservations).toEqual([
      { status: 'SETTLED', settledMicros: 0n },
      { status: 'SETTLED', settledMicros: 0n },
    ]);
    const rows = await prisma.usageRecord.findMany({ where: { id: { in: ids } } });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'REFUSED', httpStatus: 503, errorCode: 'service_unavailable', costMicros: 0n, promptTokens: 0, completionTokens: 0, attempts: 0, byok: false, upstreamModel: '', model: 'openai/gpt-4o-mini', provider: 'openai', apiKeyId: u.apiKey.id, userId: u.user.id });
      expect(r.errorMessage).toMatch(/saved openai key cannot be read/);
    }
    const scope = userUsageScope(u.user.id);
    expect(((await queryUsage({ scope, query: { limit: 50 } })) as UsagePage).data).toHaveLength(0);
    expect(((await queryUsage({ scope, query: { limit: 50, include_refused: true } })) as UsagePage).data.map((d) => [d.status, d.http_status, d.finish_reason, d.error?.code])).toEqual([
      ['refused', 503, null, 'service_unavailable'],
      ['refused', 503, null, 'service_unavailable'],
    ]);
  });

  it('403 from the organization’s provider allow-list is refused by the reservation statement itself: REFUSED, nothing reserved', async () => {
    const member = await fundedUser(0);
    const org = await createTestOrganization({ members: [{ userId: member.user.id, role: 'OWNER' }], usd: 10 });
    const prisma = await db();
    await prisma.organization.update({ where: { id: org.id }, data: { settings: { allowed_providers: ['nobody'] } as Prisma.InputJsonObject } });
    const key = await createTestKey(member.user.id, org.id);
    const refused = await post(echo, key.key);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.metadata).toMatchObject({ reason: 'organization_policy', allowed_providers: ['nobody'] });
    await h.runtime.settlements.flush();
    expect(await prisma.reservation.count({ where: { accountId: org.id } })).toBe(0);
    expect(await prisma.usageRecord.findMany({ where: { accountId: org.id }, select: { status: true, httpStatus: true, errorCode: true, costMicros: true } })).toEqual([
      { status: 'REFUSED', httpStatus: 403, errorCode: 'forbidden', costMicros: 0n },
    ]);
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
