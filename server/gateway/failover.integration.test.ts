// Routing through real HTTP against fake upstreams on several ports: one failing with 503, one answering
// 429 with Retry-After, one slow, one dropping connections, healthy ones counting which key they saw.
// Failover order, key weights, cooldowns (no request to a cooling key), affinity, filters and fallbacks,
// what the client and the usage record are told, and the charge at the serving endpoint's price.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { RETRY } from '@/server/gateway/upstream-errors';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

type Behaviour = (req: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

const ok: Behaviour = (req) =>
  (req.body as { stream?: boolean })?.stream
    ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt') }
    : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) };

describeEachDatabase('routing: failover, key pools and health', () => {
  let h: GatewayHarness;
  let key: string;
  const upstreams: Record<string, FakeUpstream> = {};
  const behaviour: Record<string, Behaviour> = {};
  let dropper: Server;
  let dropperPort = 0;

  const config = (): RoutingFileInput => {
    const compatible = (id: string, keys: { key: string; weight?: number; id?: string }[], extra: object = {}) => ({
      id,
      type: 'openai-compatible' as const,
      base_url: id === 'drop' ? `http://127.0.0.1:${dropperPort}/v1` : `${upstreams[id]!.url}/v1`,
      keys,
      ...extra,
    });
    const model = (id: string, endpoints: { provider: string; input?: number; output?: number }[]) => ({
      id,
      name: id,
      context_length: 100_000,
      max_output_tokens: 1_000,
      endpoints: endpoints.map((e) => ({ provider: e.provider, upstream_model: 'gpt-4o-mini', pricing: { input: e.input ?? 1, output: e.output ?? 2 } })),
    });
    return {
      providers: [
        compatible('down', [{ key: 'sk-down' }]),
        // The first key is picked first (weight), so that its 429 comes at once: with equal weights, ten requests
        // missed it one run in a thousand.
        compatible('limited', [{ key: 'sk-limited-1', id: 'first', weight: 1_000_000 }, { key: 'sk-limited-2', id: 'second' }]),
        compatible('pool', [{ key: 'sk-pool-a', id: 'a', weight: 1 }, { key: 'sk-pool-b', id: 'b', weight: 3 }]),
        compatible('slow', [{ key: 'sk-slow' }], { timeout_ms: 300 }),
        compatible('drop', [{ key: 'sk-drop' }]),
        compatible('backup', [{ key: 'sk-backup' }]),
        compatible('cheap', [{ key: 'sk-cheap' }]),
      ],
      models: [
        model('test/failover', [{ provider: 'down' }, { provider: 'backup', input: 10, output: 20 }]),
        model('test/limited', [{ provider: 'limited' }, { provider: 'backup' }]),
        model('test/pool', [{ provider: 'pool' }]),
        model('test/slow', [{ provider: 'slow' }, { provider: 'backup' }]),
        model('test/drop', [{ provider: 'drop' }, { provider: 'backup' }]),
        model('test/filters', [{ provider: 'backup', input: 5, output: 5 }, { provider: 'cheap', input: 1, output: 1 }]),
        model('test/dead', [{ provider: 'down' }]),
      ],
    };
  };

  beforeAll(async () => {
    RETRY.baseDelayMs = 5;
    for (const id of ['down', 'limited', 'pool', 'slow', 'backup', 'cheap']) {
      upstreams[id] = await startFakeUpstream((req) => behaviour[id]!(req));
    }
    // Accepts connections and closes them at once: a provider dropping connections.
    dropper = createServer((socket) => socket.destroy());
    await new Promise<void>((r) => dropper.listen(0, '127.0.0.1', r));
    dropperPort = (dropper.address() as { port: number }).port;
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(Object.values(upstreams).map((u) => u.close()));
    await new Promise((r) => dropper?.close(r));
  });
  beforeEach(async () => {
    Object.assign(behaviour, {
      down: () => ({ status: 503, json: { error: { message: 'overloaded' } } }),
      limited: (req: RecordedRequest) => (req.headers.authorization === 'Bearer sk-limited-1' ? { status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '30' } } : ok(req)),
      pool: ok,
      slow: async (req: RecordedRequest) => (await new Promise((r) => setTimeout(r, 1_500)), ok(req)),
      backup: ok,
      cheap: ok,
    });
    for (const u of Object.values(upstreams)) u.requests.length = 0;
    await h.renewRuntime({ routing: { config: config(), database: false } }); // fresh health for each test
  });

  const post = (body: object, headers: Record<string, string> = {}) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: false, ...body }) });
  const usageRecord = async (id: string) => {
    await h.runtime.settlements.drain();
    return (await db()).usageRecord.findUniqueOrThrow({ where: { id } });
  };

  it('a 503 moves to the next endpoint: the response and the usage record name who served, at its price', async () => {
    const res = await post({ model: 'test/failover' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.provider).toBe('backup');
    expect(body.model).toBe('test/failover');
    expect(upstreams.down!.requests.length).toBeGreaterThanOrEqual(1);
    expect(upstreams.backup!.requests).toHaveLength(1);
    const record = await usageRecord(body.id);
    expect(record).toMatchObject({ provider: 'backup', providerKey: 'key-1', status: 'SUCCESS' });
    expect(record.attempts).toBe(upstreams.down!.requests.length + 1);
    // Each attempt in order, the serving one last, without key ids (the console's Activity lists them).
    expect(record.attemptLog).toEqual([
      ...upstreams.down!.requests.map(() => ({ provider: 'down', model: 'test/failover', status: 503 })),
      { provider: 'backup', model: 'test/failover', status: 200 },
    ]);
    // backup's price: $10/M in, $20/M out.
    const { prompt_tokens: p, completion_tokens: c } = body.usage;
    expect(body.usage.cost).toBeCloseTo((p * 10 + c * 20) / 1e6, 9);
  });

  it('streams name the serving provider on every chunk', async () => {
    const res = await post({ model: 'test/failover', stream: true });
    const chunks = (await readSse(res)).chunks as { provider?: string }[];
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.provider).toBe('backup');
  });

  it('a 429 cools its key for Retry-After: the other key serves, and the cooling key gets no request', async () => {
    for (let i = 0; i < 10; i++) expect((await post({ model: 'test/limited' })).status).toBe(200);
    const firstKey = upstreams.limited!.requests.filter((r) => r.headers.authorization === 'Bearer sk-limited-1');
    expect(firstKey).toHaveLength(1); // hit once, then cooling for 30 s
    expect(upstreams.limited!.requests.filter((r) => r.headers.authorization === 'Bearer sk-limited-2')).toHaveLength(10);
    expect(upstreams.backup!.requests).toHaveLength(0);
  });

  it('spreads requests over a pool by weight (1:3 within ±10 % over 1,000 requests)', { timeout: 120_000 }, async () => {
    const N = 1_000;
    for (let i = 0; i < N; i += 50) await Promise.all(Array.from({ length: 50 }, () => post({ model: 'test/pool' }).then((r) => r.arrayBuffer())));
    const b = upstreams.pool!.requests.filter((r) => r.headers.authorization === 'Bearer sk-pool-b').length;
    expect(upstreams.pool!.requests).toHaveLength(N);
    expect(b / N).toBeGreaterThan(0.75 * 0.9);
    expect(b / N).toBeLessThan(0.75 * 1.1);
  });

  it('affinity: the same X-Task-ID goes to the same key (20 of 20), and different tasks spread', async () => {
    for (let i = 0; i < 20; i++) expect((await post({ model: 'test/pool' }, { 'x-task-id': 'task-42' })).status).toBe(200);
    const seen = new Set(upstreams.pool!.requests.map((r) => r.headers.authorization));
    expect(seen.size).toBe(1);
    upstreams.pool!.requests.length = 0;
    for (let i = 0; i < 40; i++) await post({ model: 'test/pool', prompt_cache_key: `task-${i}` });
    expect(new Set(upstreams.pool!.requests.map((r) => r.headers.authorization)).size).toBe(2);
  });

  it('a slow endpoint times out (timeout_ms) and a dropped connection fails over', async () => {
    const slow = await post({ model: 'test/slow' });
    expect(slow.status).toBe(200);
    expect((await slow.json()).provider).toBe('backup');
    const dropped = await post({ model: 'test/drop' });
    expect(dropped.status).toBe(200);
    expect((await dropped.json()).provider).toBe('backup');
  });

  it('client errors are not retried elsewhere; a final error lists every attempt', async () => {
    behaviour.down = () => ({ status: 400, json: { error: { message: 'bad parameter' } } });
    const bad = await post({ model: 'test/failover' });
    expect(bad.status).toBe(400);
    expect(upstreams.backup!.requests).toHaveLength(0);
    behaviour.down = () => ({ status: 503, json: { error: { message: 'overloaded' } } });
    const dead = await post({ model: 'test/dead' });
    expect(dead.status).toBeGreaterThanOrEqual(500);
    const error = (await dead.json()).error;
    expect(error.metadata.attempts.length).toBe(RETRY.attempts);
    expect(error.metadata.attempts[0]).toMatchObject({ provider: 'down', key: 'key-1', status: 503 });
    const record = await usageRecord(dead.headers.get('x-generation-id')!);
    expect(record).toMatchObject({ status: 'ERROR', attempts: RETRY.attempts });
    expect(record.attemptLog).toEqual(error.metadata.attempts.map((a: { provider: string; model: string; status: number | null }) => ({ provider: a.provider, model: a.model, status: a.status })));
  });

  it('once every key is cooling: 503 with Retry-After, without calling the upstream', async () => {
    behaviour.down = () => ({ status: 429, json: { error: { message: 'quota' } }, headers: { 'retry-after': '20' } });
    expect((await post({ model: 'test/dead' })).status).toBe(429);
    const calls = upstreams.down!.requests.length;
    const res = await post({ model: 'test/dead' });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(15);
    expect(upstreams.down!.requests.length).toBe(calls);
  });

  it('fallback models: `model` in the answer is the one that served', async () => {
    const res = await post({ model: 'test/dead', models: ['test/pool'] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.model).toBe('test/pool');
    expect(body.provider).toBe('pool');
    expect((await usageRecord(body.id)).model).toBe('test/pool');
  });

  it('provider preferences: order, only, ignore, sort by price, allow_fallbacks', async () => {
    const served = async (provider: object) => (await (await post({ model: 'test/filters', provider })).json()).provider;
    expect(await served({})).toBe('backup');
    expect(await served({ order: ['cheap'] })).toBe('cheap');
    expect(await served({ only: ['cheap'] })).toBe('cheap');
    expect(await served({ ignore: ['backup'] })).toBe('cheap');
    expect(await served({ sort: 'price' })).toBe('cheap');
    behaviour.backup = () => ({ status: 503, json: { error: { message: 'down' } } });
    upstreams.cheap!.requests.length = 0;
    expect((await post({ model: 'test/filters', provider: { allow_fallbacks: false } })).status).toBeGreaterThanOrEqual(500);
    expect(upstreams.cheap!.requests).toHaveLength(0);
    const none = await post({ model: 'test/filters', provider: { only: ['cheap'], ignore: ['cheap'] } });
    expect(none.status).toBe(404);
    expect((await none.json()).error.message).toMatch(/cheap \(test\/filters\) removed by provider\.ignore/);
  });

  it('reserves for the dearest candidate: a balance that covers only the cheap endpoint is refused', async () => {
    // test/failover's backup endpoint costs 10×; a tiny balance cannot cover its worst case.
    const poor = await fundedUser(0.005);
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${poor.key}` },
      body: JSON.stringify({ model: 'test/failover', stream: false, max_tokens: 1_000, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(402);
    expect(upstreams.down!.requests).toHaveLength(0);
  });
});

describe('routing: request validation', () => {
  it('is covered by the chat request schema (models, provider)', async () => {
    const { parseChatRequest } = await import('@/server/gateway/chat-request-schema');
    expect(() => parseChatRequest({ model: 'a/b', messages: [{ role: 'user', content: 'x' }], provider: { sort: 'fastest' } })).toThrow(/sort/);
    expect(parseChatRequest({ model: 'a/b', messages: [{ role: 'user', content: 'x' }], models: ['c/d'], provider: { only: ['x'] } }).models).toEqual(['c/d']);
  });
});
