// GET /organizations/{id}/metrics through HTTP, against rows whose sums and percentiles are known.
// percentile_cont interpolates linearly: p95 of [100, 200, 300, 400] is 300 + 0.85 × 100 = 385.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller, createTestOrganization, createTestUser, insertUsage } from '@/test/factories';

const T0 = Date.parse('2026-04-01T00:00:00Z');
const at = (hours: number, minutes = 0) => new Date(T0 + hours * 3_600_000 + minutes * 60_000);
const range = `from=${at(0).toISOString()}&to=${at(4).toISOString()}`;

describeEachDatabase('REST organization metrics', () => {
  let api: ApiServer;
  const call = apiCaller(() => api.origin);
  let owner: Awaited<ReturnType<typeof createTestUser>>;
  let member: Awaited<ReturnType<typeof createTestUser>>;
  let org: { id: string };

  beforeAll(async () => {
    api = await startApiServer();
    [owner, member] = await Promise.all([createTestUser(), createTestUser()]);
    org = await createTestOrganization({ members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }] });
    const other = await createTestOrganization({ members: [{ userId: owner.user.id, role: 'OWNER' }] });
    const mini = { accountId: org.id, userId: owner.user.id, apiKeyId: owner.apiKeyId, model: 'openai/gpt-4o-mini', promptTokens: 10 };
    await insertUsage([
      { ...mini, createdAt: at(0, 5), latencyMs: 100, ttftMs: 10, promptTokens: 100, cachedTokens: 50, costMicros: 1_000n, cacheSavingsMicros: 20n },
      { ...mini, createdAt: at(0, 30), latencyMs: 200, ttftMs: 20, promptTokens: 100, costMicros: 1_000n },
      { ...mini, createdAt: at(2, 1), latencyMs: 300, ttftMs: 30, costMicros: 500n },
      { ...mini, createdAt: at(2, 2), latencyMs: 400, ttftMs: null, streamed: false, costMicros: 500n },
      { ...mini, createdAt: at(2, 3), latencyMs: 5_000, ttftMs: 4_000, status: 'ERROR', errorCode: 'server_error', costMicros: 0n },
      { accountId: org.id, userId: member.user.id, model: 'anthropic/claude-haiku-4.5', promptTokens: 10, createdAt: at(3, 59), latencyMs: 1_000, ttftMs: 110, costMicros: 3_000n },
      { accountId: org.id, userId: member.user.id, model: 'anthropic/claude-haiku-4.5', promptTokens: 10, createdAt: at(3, 10), latencyMs: 50, ttftMs: null, status: 'ABORTED', costMicros: 0n },
      // refused at admission: never counted by the metrics
      { accountId: org.id, userId: member.user.id, model: 'openai/gpt-4o-mini', createdAt: at(1, 0), status: 'REFUSED', httpStatus: 402, errorCode: 'payment_required', costMicros: 0n, promptTokens: 0, completionTokens: 0 },
      // outside the range, and another organization's
      { ...mini, createdAt: at(4), costMicros: 99_000n },
      { ...mini, accountId: other.id, createdAt: at(1), costMicros: 99_000n },
    ]);
  });
  afterAll(() => api?.close());

  const get = async (qs: string, key: string) => {
    const res = await call('GET', `/organizations/${org.id}/metrics?${qs}`, key);
    return { status: res.status, body: await res.json() };
  };

  it('totals: spend, tokens, cache hit ratio and savings, error rate, latency and ttft percentiles', async () => {
    const { status, body } = await get(`${range}&interval=hour`, owner.key);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: at(0).toISOString(), to: at(4).toISOString(), interval: 'hour', visibility: 'account' });
    expect(body.totals).toEqual({
      requests: 7,
      errors: 1,
      aborted: 1,
      error_rate: 0.1429,
      spend: 0.006,
      spend_micros: '6000',
      prompt_tokens: 250,
      completion_tokens: 35,
      cached_tokens: 50,
      reasoning_tokens: 0,
      cache_hit_ratio: 0.2,
      cache_savings: 0.00002,
      cache_savings_micros: '20',
      latency_ms: { p50: 300, p95: 880 },
      ttft_ms: { p50: 25, p95: 98 },
    });
  });

  it('a gap-free hourly series and a per-model breakdown', async () => {
    const { body } = await get(`${range}&interval=hour`, owner.key);
    expect(body.series.map((b: any) => [b.bucket, b.requests, b.errors, b.spend_micros])).toEqual([
      [at(0).toISOString(), 2, 0, '2000'],
      [at(1).toISOString(), 0, 0, '0'],
      [at(2).toISOString(), 3, 1, '1000'],
      [at(3).toISOString(), 2, 0, '3000'],
    ]);
    expect(body.series[1]).toMatchObject({ error_rate: 0, cache_hit_ratio: 0, latency_ms: { p50: null, p95: null } });
    expect(body.series[0]).toMatchObject({ cache_hit_ratio: 0.25, latency_ms: { p50: 150, p95: 195 } });
    const mini = body.by_model.find((m: any) => m.model === 'openai/gpt-4o-mini');
    const haiku = body.by_model.find((m: any) => m.model === 'anthropic/claude-haiku-4.5');
    expect(body.by_model.map((m: any) => m.model)).toEqual(['openai/gpt-4o-mini', 'anthropic/claude-haiku-4.5']);
    expect(mini).toMatchObject({ requests: 5, errors: 1, error_rate: 0.2, latency_ms: { p50: 250, p95: 385 }, ttft_ms: { p50: 20, p95: 29 } });
    expect(haiku).toMatchObject({ requests: 2, errors: 0, aborted: 1, latency_ms: { p50: 1000, p95: 1000 }, ttft_ms: { p50: 110, p95: 110 } });

    expect(body.by_key.map((k: any) => [k.api_key_id, k.requests, k.spend_micros, k.total_tokens])).toEqual([
      [owner.apiKeyId, 5, '3000', 230 + 25],
      [null, 2, '3000', 20 + 10],
    ]);
    expect(body.by_member.map((m: any) => [m.user_id, m.requests, m.spend])).toEqual([
      [owner.user.id, 5, 0.003],
      [member.user.id, 2, 0.003],
    ]);

    const daily = await get(`from=2026-03-31&to=2026-04-03&interval=day`, owner.key);
    expect(daily.body.series.map((b: any) => [b.bucket.slice(0, 10), b.requests])).toEqual([
      ['2026-03-31', 0],
      ['2026-04-01', 8],
      ['2026-04-02', 0],
    ]);
    const onlyHaiku = await get(`${range}&model=anthropic/claude-haiku-4.5`, owner.key);
    expect(onlyHaiku.body.totals.requests).toBe(2);
  });

  it('members get the same figures over their own usage; strangers 404', async () => {
    const { status, body } = await get(`${range}&interval=hour`, member.key);
    expect(status).toBe(200);
    expect(body.visibility).toBe('own');
    expect(body.totals).toMatchObject({ requests: 2, spend_micros: '3000' });
    const stranger = await createTestUser();
    expect((await get(range, stranger.key)).status).toBe(404);
    expect((await call('GET', `/organizations/${org.id}/metrics`, null)).status).toBe(401);
  });

  it('defaults to the last 30 days by day; refuses inverted or oversized ranges', async () => {
    const { status, body } = await get('', owner.key);
    expect(status).toBe(200);
    expect(body.interval).toBe('day');
    expect(body.series.length).toBeGreaterThanOrEqual(30);
    expect(body.series.length).toBeLessThanOrEqual(31);
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(30 * 86_400_000);
    expect((await get(`from=${at(4).toISOString()}&to=${at(0).toISOString()}`, owner.key)).status).toBe(400);
    expect((await get('from=2026-01-01&to=2026-03-01&interval=hour', owner.key)).status).toBe(400);
    expect((await get('interval=minute', owner.key)).status).toBe(400);
  });

  it('an early `to` alone: the default `from` stops at 0001-01-01 instead of a 500 on year 0', async () => {
    for (const [qs, buckets] of [['to=0001-01-02', 1], ['to=0001-01-01T05:00:00Z&interval=hour', 5], ['to=0001-01-31', 30]] as const) {
      const { status, body } = await get(qs, owner.key);
      expect(status, qs).toBe(200);
      expect(body.from, qs).toBe('0001-01-01T00:00:00.000Z');
      expect(body.series, qs).toHaveLength(buckets);
      expect(body.totals.requests, qs).toBe(0);
    }
    // Nothing can come before the earliest time: a range that would be empty is refused, saying why.
    const earliest = await get('to=0001-01-01', owner.key);
    expect(earliest.status).toBe(400);
    expect(earliest.body.error.message).toMatch(/to.*after 0001-01-01/);
  });
});
