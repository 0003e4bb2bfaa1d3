// OpenRouter's own cost (`usage.cost`, USD credits as a JSON number, in the answer and in the stream's last
// chunk; openrouter.ai/docs/use-cases/usage-accounting) through the real gateway and REST API: kept exactly,
// in micro-dollars, in the usage record and GET /generation's `provider_cost`, while the customer is charged
// our own list price. Fake OpenRouter answers in its wire shape (`: OPENROUTER PROCESSING` comments,
// `provider`, `native_finish_reason`, `is_byok`, `cost_details`).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { readSse } from '@/test/gateway-harness';

// Written as OpenRouter's serializer writes them: 0.000123 × 1e6 is 123.00000000000001 in floating point
// (124 µ$ once rounded up); 1.95e-5 is 19.5 µ$, a fraction of a micro-dollar (rounded up to 20).
const ANSWER_COST = '0.000123';
const STREAM_COST = '1.95e-5';

function fakeOpenRouter(req: RecordedRequest): FakeResponse {
  const body = req.body as { stream?: boolean };
  const base = { id: 'gen-1760000000-abcdef', provider: 'Anthropic', model: 'anthropic/claude-sonnet-4.5', created: 1760000000 };
  const usage = (cost: string) =>
    `{"prompt_tokens":30,"completion_tokens":10,"total_tokens":40,"cost":${cost},"is_byok":false,"prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":0},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":0}}`;
  if (body.stream) {
    const chunk = (choice: object) => JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice] });
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      sse: [
        ': OPENROUTER PROCESSING\n\n',
        `data: ${chunk({ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null, native_finish_reason: null, logprobs: null })}\n\n`,
        `data: ${chunk({ index: 0, delta: { role: 'assistant', content: 'lo' }, finish_reason: 'stop', native_finish_reason: 'end_turn', logprobs: null })}\n\n`,
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, native_finish_reason: null, logprobs: null }] }).slice(0, -1)},"usage":${usage(STREAM_COST)}}\n\n`,
        'data: [DONE]\n\n',
      ],
    };
  }
  const answer = JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, logprobs: null, finish_reason: 'stop', native_finish_reason: 'end_turn', message: { role: 'assistant', content: 'Hello', refusal: null, reasoning: null } }] });
  return { status: 200, headers: { 'content-type': 'application/json' }, text: `${answer.slice(0, -1)},"usage":${usage(ANSWER_COST)}}` };
}

describeEachDatabase('OpenRouter usage.cost', () => {
  let openrouter: FakeUpstream;
  let api: ApiServer;
  let user: Awaited<ReturnType<typeof createTestUser>>;

  beforeAll(async () => {
    openrouter = await startFakeUpstream(fakeOpenRouter);
    const config: RoutingFileInput = {
      providers: [{ id: 'openrouter-test', type: 'openrouter', base_url: `${openrouter.url}/api/v1`, keys: [{ key: 'or-key' }] }],
      // $1 in, $2 out per million tokens: 30 in + 10 out = 50 µ$, whatever OpenRouter says it cost.
      models: [{ id: 'test/openrouter', name: 'Claude via OpenRouter', context_length: 128_000, max_output_tokens: 100, endpoints: [{ provider: 'openrouter-test', upstream_model: 'anthropic/claude-sonnet-4.5', pricing: { input: 1, output: 2 } }] }],
    };
    api = await startApiServer({ routing: { config, database: false } });
    user = await createTestUser(5);
  });
  afterAll(async () => {
    await api?.close();
    await openrouter?.close();
  });

  const chat = (stream: boolean) =>
    fetch(`${api.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/openrouter', stream, messages: [{ role: 'user', content: 'Hi' }] }),
    });

  async function expectRecorded(generationId: string, providerCostMicros: bigint) {
    await api.runtime.settlements.flush();
    const record = await (await db()).usageRecord.findUniqueOrThrow({ where: { id: generationId } });
    expect(record).toMatchObject({ provider: 'openrouter-test', promptTokens: 30, completionTokens: 10, costMicros: 50n, providerCostMicros });
    const entry = await (await db()).ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: `usage:${generationId}` } });
    expect(entry.amountMicros).toBe(-50n); // charged at our list price, not OpenRouter's
    const res = await fetch(`${api.origin}/api/v1/generation?id=${generationId}`, { headers: { authorization: `Bearer ${user.key}` } });
    expect(res.status).toBe(200);
    return (await res.json()).data;
  }

  it('non-streaming: usage.cost is recorded exactly and shown as provider_cost; the client is charged our price', async () => {
    const res = await chat(false);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, cost: 0.00005 });
    const generation = await expectRecorded(body.id, 123n);
    expect(generation).toMatchObject({ total_cost: 0.00005, total_cost_micros: '50', provider_cost: 0.000123, provider_cost_micros: '123' });
  });

  it('streaming: the cost in the last chunk is recorded, a fraction of a micro-dollar rounded up', async () => {
    const { chunks, done } = await readSse(await chat(true));
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Hello');
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 10, cost: 0.00005 });
    const generation = await expectRecorded(chunks[0].id, 20n);
    expect(generation).toMatchObject({ total_cost: 0.00005, provider_cost: 0.00002, provider_cost_micros: '20' });
  });

  it('a provider that reports no cost: provider_cost is null', async () => {
    const res = await fetch(`${api.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    await api.runtime.settlements.flush();
    const generation = await (await fetch(`${api.origin}/api/v1/generation?id=${(await res.json()).id}`, { headers: { authorization: `Bearer ${user.key}` } })).json();
    expect(generation.data).toMatchObject({ provider_cost: null, provider_cost_micros: null });
  });
});
