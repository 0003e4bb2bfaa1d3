// Prompt caching through the gateway over real HTTP: cache_control arrives at a fake Anthropic upstream where
// the client put it, and the upstream's cache reads, 5-minute and 1-hour writes (usage.cache_creation,
// fixtures built from the Messages API's Usage shape) are each charged at the test model's own price, with
// usage.cost equal to the ledger entry. A request over Anthropic's breakpoint limit never leaves the gateway.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from '@/server/db';
import { microsToUsd } from '@/server/ledger/money';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

// $3 in, $15 out, reads $0.30, 5-minute writes $3.75, 1-hour writes $6 per million tokens (Claude Sonnet 4.5).
const PRICES = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75, cache_write_1h: 6 };
// cached_usage_1h: 21 plain input tokens, 6,000 read, 500 written for 5 minutes, 3,000 for an hour, 9 out.
const EXPECTED_COST_MICROS = 21n * 3n + 6_000n * 3n / 10n + 500n * 375n / 100n + 3_000n * 6n + 9n * 15n;

describeEachDatabase('prompt caching on /chat/completions', () => {
  let h: GatewayHarness;
  let anthropic: FakeUpstream;
  let key: string;

  const config = (): RoutingFileInput => ({
    providers: [{ id: 'claude-test', type: 'anthropic', base_url: anthropic.url, keys: [{ key: 'sk-ant-test' }] }],
    models: [
      {
        id: 'test/claude-cache',
        name: 'Claude with cache prices',
        context_length: 200_000,
        max_output_tokens: 1_000,
        supports_images: true,
        endpoints: [{ provider: 'claude-test', upstream_model: 'claude-sonnet-4-5', pricing: PRICES }],
      },
    ],
  });

  beforeAll(async () => {
    anthropic = await startFakeUpstream((req) =>
      (req.body as { stream?: boolean })?.stream
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('anthropic', 'cached_usage_1h.chunks.txt') }
        : { status: 200, json: JSON.parse(readFixture('anthropic', 'cached_usage_1h.json')) },
    );
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(10)).key;
  });
  afterAll(async () => {
    await h?.close();
    await anthropic?.close();
  });
  beforeEach(() => void (anthropic.requests.length = 0));

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ model: 'test/claude-cache', ...body }) });

  const hour = { type: 'ephemeral', ttl: '1h' };
  // As long as the prompt the fixture reports (9,521 tokens), so the reservation holds the whole charge.
  const repositoryMap = 'src/index.ts '.repeat(3_000);
  const agentTurn = {
    tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }, cache_control: hour }],
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'You are a coding agent. <long instructions>', cache_control: hour }] },
      { role: 'user', content: [{ type: 'text', text: repositoryMap }, { type: 'text', text: 'Fix the failing test.', cache_control: { type: 'ephemeral' } }] },
    ],
  };

  async function expectLedgerCharge(generationId: string, costUsd: number) {
    await h.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUnique({ where: { id: generationId } });
    expect(record).toMatchObject({ costMicros: EXPECTED_COST_MICROS, cachedTokens: 6_000, cacheWriteTokens: 3_500, unbilledMicros: 0n });
    const entry = await (await db()).ledgerEntry.findUnique({ where: { idempotencyKey: `usage:${generationId}` } });
    expect(-entry!.amountMicros).toBe(EXPECTED_COST_MICROS);
    expect(costUsd).toBe(microsToUsd(EXPECTED_COST_MICROS));
  }

  it('non-streaming: breakpoints arrive where the client put them; 1-hour writes are charged at their own price', async () => {
    const res = await post({ ...agentTurn, stream: false });
    expect(res.status).toBe(200);
    const body = await res.json();

    const sent = anthropic.requests[0]!.body as Record<string, any>;
    expect(sent.tools[0].cache_control).toEqual(hour);
    expect(sent.system).toEqual([{ type: 'text', text: 'You are a coding agent. <long instructions>', cache_control: hour }]);
    expect(sent.messages[0].content).toEqual([{ type: 'text', text: repositoryMap }, { type: 'text', text: 'Fix the failing test.', cache_control: { type: 'ephemeral' } }]);
    expect(anthropic.requests[0]!.rawBody.match(/cache_control/g)).toHaveLength(3);

    expect(body.usage).toMatchObject({ prompt_tokens: 21 + 6_000 + 3_500, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_500 } });
    await expectLedgerCharge(body.id, body.usage.cost);
  });

  it('streaming: the final usage chunk carries the same exact counts and cost', async () => {
    const res = await post({ ...agentTurn, stream: true });
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    const last = chunks.at(-1);
    expect(last.usage).toMatchObject({ prompt_tokens: 9_521, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_500 } });
    expect((anthropic.requests[0]!.body as Record<string, any>).system[0].cache_control).toEqual(hour);
    await expectLedgerCharge(last.id, last.usage.cost);
  });

  it('the automatic option marks the last tool, the system prompt and the last user turn', async () => {
    const plain = { tools: [{ type: 'function', function: { name: 'read_file' } }], messages: [{ role: 'system', content: 'Rules' }, { role: 'user', content: 'Hi' }] };
    expect((await post({ ...plain, cache_control: hour, stream: false })).status).toBe(200);
    const sent = anthropic.requests[0]!.body as Record<string, any>;
    expect([sent.tools[0].cache_control, sent.system[0].cache_control, sent.messages[0].content[0].cache_control]).toEqual([hour, hour, hour]);
  });

  it('more than 4 breakpoints: 400 naming the count, and no upstream request', async () => {
    const marked = { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } };
    const res = await post({ stream: false, messages: [{ role: 'system', content: [marked, marked] }, { role: 'user', content: [marked, marked, marked] }] });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 400, metadata: { cache_breakpoints: 5, max_cache_breakpoints: 4 } });
    expect(body.error.message).toMatch(/5 prompt-cache breakpoints/);
    expect(anthropic.requests).toHaveLength(0);
  });
});
