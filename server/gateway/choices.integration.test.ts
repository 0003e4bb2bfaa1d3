// n > 1 through HTTP: an OpenAI Chat Completions upstream (fake, answering in OpenAI's wire shape: one choice
// per stream chunk, interleaved, each with its own finish_reason, usage last) gives every choice to the
// client, streaming and not; the reservation holds the output limit once per choice; xAI is asked for n as
// well; an upstream without choices (Anthropic, an OpenAI model served through the Responses API) is refused
// with a 400 naming the model and `n` before any credit is touched.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

function fakeOpenAI(req: RecordedRequest) {
  const body = req.body as { stream?: boolean };
  return body.stream ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'choices') } : { status: 200, json: JSON.parse(readFixture('openai', 'choices.json')) };
}

describeEachDatabase('n > 1 (several choices)', () => {
  let h: GatewayHarness;
  let upstream: FakeUpstream;
  let key: string;
  let account: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream(fakeOpenAI);
    const model = (id: string, provider: string, upstream_model: string) => ({
      id, name: id, context_length: 128_000, max_output_tokens: 1_000, endpoints: [{ provider, upstream_model, pricing: { input: 1, output: 2 } }],
    });
    const config: RoutingFileInput = {
      providers: [
        { id: 'openai-test', type: 'openai', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-test' }] },
        { id: 'xai-test', type: 'xai', base_url: `${upstream.url}/xai/v1`, keys: [{ key: 'xai-test' }] },
        { id: 'anthropic-test', type: 'anthropic', base_url: `${upstream.url}/anthropic`, keys: [{ key: 'sk-ant-test' }] },
      ],
      models: [
        model('test/gpt', 'openai-test', 'gpt-4o-mini'),
        model('test/gpt-responses', 'openai-test', 'gpt-6.2-sol'),
        model('test/grok', 'xai-test', 'grok-4'),
        model('test/claude', 'anthropic-test', 'claude-sonnet-4-5'),
      ],
    };
    h = await startGatewayHarness({ routing: { config, database: false } });
    const u = await fundedUser(10);
    key = u.key;
    account = u.user.personal_account_id;
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ messages: [{ role: 'user', content: 'Say hello' }], ...body }) });

  it('non-streaming: every choice with its index and finish reason; n goes upstream; usage counts all choices', async () => {
    const res = await post({ model: 'test/gpt', n: 2, max_tokens: 50, stream: false });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Hello there!' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'Hi! How can' }, finish_reason: 'length' },
    ]);
    expect(upstream.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini', n: 2, max_tokens: 50 });
    expect(body.usage).toMatchObject({ prompt_tokens: 14, completion_tokens: 7, cost: 0.000028 }); // 14 × $1 + 7 × $2 per million
    await h.runtime.settlements.flush();
    expect(await (await db()).usageRecord.findUnique({ where: { id: body.id } })).toMatchObject({ completionTokens: 7, costMicros: 28n, finishReason: 'stop' });
  });

  it('streaming: chunks name their choice; each choice opens with the role and ends with its own finish reason; usage last', async () => {
    const { chunks, done } = await readSse(await post({ model: 'test/gpt', n: 2, max_tokens: 50, stream: true }));
    expect(done).toBe(true);
    const text = (i: number) => chunks.filter((c) => c.choices[0]?.index === i).map((c) => c.choices[0].delta.content ?? '').join('');
    expect(text(0)).toBe('Hello there!');
    expect(text(1)).toBe('Hi! How can');
    expect(chunks.filter((c) => c.choices[0]?.delta?.role === 'assistant').map((c) => c.choices[0].index)).toEqual([0, 1]);
    const finishes = chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => [c.choices[0].index, c.choices[0].finish_reason]);
    expect(finishes).toEqual([[0, 'stop'], [1, 'length']]);
    expect(chunks.filter((c) => c.usage).map((c) => c.choices[0].index)).toEqual([1]);
    expect(chunks.at(-1).usage).toMatchObject({ completion_tokens: 7, cost: 0.000028 });
    expect(upstream.requests.at(-1)!.body).toMatchObject({ n: 2, stream: true });
  });

  it('an upstream past the limit: each choice is cut to it (the limit times n in all), every choice ends with length', async () => {
    // The fixture's 7 completion tokens are more than 2 choices × max_tokens 2.
    const res = await post({ model: 'test/gpt', n: 2, max_tokens: 2, stream: false });
    const body = await res.json();
    expect(body.choices.map((c: { message: { content: string }; finish_reason: string }) => [c.message.content, c.finish_reason])).toEqual([
      ['Hello ', 'length'],
      ['Hi! Ho', 'length'],
    ]);
    expect(body.usage.completion_tokens).toBe(4);
    const { chunks } = await readSse(await post({ model: 'test/gpt', n: 2, max_tokens: 2, stream: true }));
    expect(chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => [c.choices[0].index, c.choices[0].finish_reason])).toEqual([[0, 'length'], [1, 'length']]);
    expect(chunks.at(-1).usage.completion_tokens).toBe(4);
  });

  it('the reservation holds the output limit once per choice (the prompt once)', async () => {
    const prisma = await db();
    const reserved = async (n: number) => {
      const res = await post({ model: 'test/gpt', n, max_tokens: 500, stream: false });
      expect(res.status).toBe(200);
      return (await prisma.reservation.findUniqueOrThrow({ where: { generationId: (await res.json()).id } })).amountMicros;
    };
    const [one, three] = [await reserved(1), await reserved(3)];
    expect(three - one).toBe(2n * 500n * 2n); // two more choices × 500 tokens × $2 per million
  });

  it('xAI is asked for n as well', async () => {
    const res = await post({ model: 'test/grok', n: 2, stream: false });
    expect(res.status).toBe(200);
    expect((await res.json()).choices.map((c: { index: number }) => c.index)).toEqual([0, 1]);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/xai/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: 'grok-4', n: 2 });
  });

  it.each([
    ['test/claude', 'Anthropic'],
    ['test/gpt-responses', 'an OpenAI model served through the Responses API'],
  ])('%s (%s): 400 naming the model and n, nothing reserved, no upstream call', async (model) => {
    await h.runtime.settlements.flush(); // earlier tests' settlements land first
    const before = await getBalanceOrThrow(account);
    const calls = upstream.requests.length;
    const res = await post({ model, n: 2, stream: false });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.message).toMatch(new RegExp(`^n > 1 is not supported for ${model}`));
    expect(error.metadata).toMatchObject({ model, param: 'n' });
    expect(upstream.requests.length).toBe(calls);
    expect(await getBalanceOrThrow(account)).toEqual(before);
  });
});
