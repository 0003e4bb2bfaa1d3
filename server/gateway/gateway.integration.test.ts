// The gateway end to end through real HTTP, with the official OpenAI SDK as the client and a fake upstream
// replaying each provider's recorded wire format. Ledger and usage are checked against usage.cost.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { microsToUsd } from '@/server/ledger/money';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('chat completions through each provider', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let account: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    const u = await fundedUser(10);
    account = u.user.personal_account_id;
    client = new OpenAI({ apiKey: u.key, baseURL: h.baseUrl, maxRetries: 0 });
  });
  afterAll(() => h?.close());

  async function expectCharged(id: string, cost: number) {
    await h.runtime.settlements.flush();
    const rec = await (await db()).usageRecord.findUnique({ where: { id } });
    expect(rec, `usage record for ${id}`).not.toBeNull();
    expect(microsToUsd(rec!.costMicros)).toBe(cost);
    const entry = await (await db()).ledgerEntry.findUnique({ where: { idempotencyKey: `usage:${id}` } });
    if (cost > 0) expect(microsToUsd(-entry!.amountMicros)).toBe(cost);
    else expect(entry).toBeNull();
    return rec!;
  }

  it('openai: non-streaming text, usage with cached tokens and cost equal to the ledger entry', async () => {
    h.respond = replay('openai', 'text');
    const before = await getBalanceOrThrow(account);
    const { data, response } = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: false }).withResponse();
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(data.id).toMatch(/^gen-/);
    expect(data.model).toBe('openai/gpt-4o-mini');
    expect(data.choices[0].message.role).toBe('assistant');
    expect(typeof data.choices[0].message.content).toBe('string');
    expect(data.choices[0].finish_reason).toBe('stop');
    const usage = data.usage as any;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.cost).toBeGreaterThan(0);
    const upstreamBody = h.upstream.requests.at(-1)!.body as any;
    expect(upstreamBody.model).toBe('gpt-4o-mini');
    expect(h.upstream.requests.at(-1)!.headers.authorization).toBe('Bearer sk-upstream-openai-SECRET');
    const rec = await expectCharged(data.id, usage.cost);
    expect(rec.status).toBe('SUCCESS');
    const after = await getBalanceOrThrow(account);
    expect(microsToUsd(before.totalMicros - after.totalMicros)).toBe(usage.cost);
    expect(after.reservedMicros).toBe(0n);
  });

  it('openai: streaming passes deltas through with one id, role first, usage and [DONE] last', async () => {
    h.respond = replay('openai', 'text');
    const stream = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true });
    const chunks: any[] = [];
    for await (const c of stream) chunks.push(c);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text.length).toBeGreaterThan(0);
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('stop');
    expect(last.usage.cost).toBeGreaterThan(0);
    expect((h.upstream.requests.at(-1)!.body as any).stream_options).toEqual({ include_usage: true });
    await expectCharged(last.id, last.usage.cost);
  });

  it('openai: streamed tool calls arrive in OpenAI shape and finish with tool_calls', async () => {
    h.respond = replay('openai', 'tool_calls');
    const stream = await client.chat.completions.create({
      model: 'openai/gpt-4o-mini',
      messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      stream: true,
    });
    const args: Record<number, string> = {};
    let finish = '';
    for await (const c of stream) {
      for (const t of c.choices[0]?.delta?.tool_calls ?? []) args[t.index] = (args[t.index] ?? '') + (t.function?.arguments ?? '');
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(Object.keys(args).length).toBeGreaterThanOrEqual(1);
    for (const a of Object.values(args)) expect(() => JSON.parse(a)).not.toThrow();
  });

  it('anthropic: thinking streams as reasoning with signed reasoning_details', async () => {
    h.respond = replay('anthropic', 'thinking');
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4.5', messages: [{ role: 'system', content: 'Be brief' }, { role: 'user', content: 'Why is the sky blue?' }] }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { readSse } = await import('@/test/gateway-harness');
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    const reasoning = chunks.map((c) => c.choices[0].delta?.reasoning ?? '').join('');
    expect(reasoning.length).toBeGreaterThan(0);
    const details = chunks.flatMap((c) => c.choices[0].delta?.reasoning_details ?? []);
    expect(details.some((d: any) => d.signature)).toBe(true);
    const sent = h.upstream.requests.at(-1)! as any;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream-SECRET');
    expect(sent.body.system).toBeDefined();
    expect(sent.body.thinking?.type).toBe('enabled');
    const last = chunks.at(-1);
    expect(last.usage.cost).toBeGreaterThan(0);
    await expectCharged(last.id, last.usage.cost);
  });

  it('gemini: non-streaming thinking model answer with usage', async () => {
    h.respond = replay('gemini', 'thinking');
    const data = await client.chat.completions.create({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'Think, then answer' }], stream: false });
    expect(h.upstream.requests.at(-1)!.path).toContain('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(h.upstream.requests.at(-1)!.headers['x-goog-api-key']).toBe('gemini-upstream-SECRET');
    expect((data.choices[0].message as any).reasoning?.length).toBeGreaterThan(0);
    expect((data.usage as any).completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    await expectCharged(data.id, (data.usage as any).cost);
  });

  it('gemini: streaming over alt=sse', async () => {
    h.respond = replay('gemini', 'text');
    const stream = await client.chat.completions.create({ model: 'google/gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const chunks: any[] = [];
    for await (const c of stream) chunks.push(c);
    expect(h.upstream.requests.at(-1)!.path).toContain(':streamGenerateContent?alt=sse');
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('').length).toBeGreaterThan(0);
    expect(chunks.at(-1).usage.cost).toBeGreaterThan(0);
  });

  it('deepseek: reasoning_content becomes reasoning', async () => {
    h.respond = replay('openai-compatible', 'reasoning');
    const stream = await client.chat.completions.create({ model: 'deepseek/deepseek-reasoner', messages: [{ role: 'user', content: '9.11 or 9.8?' }], stream: true });
    let reasoning = '';
    let content = '';
    for await (const c of stream) {
      reasoning += (c.choices[0]?.delta as any)?.reasoning ?? '';
      content += c.choices[0]?.delta?.content ?? '';
    }
    expect(h.upstream.requests.at(-1)!.path).toBe('/chat/completions');
    expect(reasoning.length).toBeGreaterThan(0);
    expect(content.length).toBeGreaterThan(0);
  });

  it('switchboard/echo streams the last user message back and is metered', async () => {
    const stream = await client.chat.completions.create({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'hello there world' }], stream: true });
    let text = '';
    let last: any;
    for await (const c of stream) {
      text += c.choices[0]?.delta?.content ?? '';
      last = c;
    }
    expect(text).toBe('hello there world');
    expect(last.usage.cost).toBeGreaterThan(0);
    await expectCharged(last.id, last.usage.cost);
    const nonStream = await client.chat.completions.create({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'ping' }], stream: false });
    expect(nonStream.choices[0].message.content).toBe('ping');
  });

  it('switchboard/echo counts (and charges) the same answer the same, streamed or not', async () => {
    const messages = [{ role: 'user' as const, content: 'Hello there, how are you doing today?' }];
    let streamed: any;
    for await (const c of await client.chat.completions.create({ model: 'switchboard/echo', messages, stream: true })) streamed = c.usage ?? streamed;
    const whole = await client.chat.completions.create({ model: 'switchboard/echo', messages, stream: false });
    const pick = (u: any) => ({ prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, cost: u.cost });
    expect(pick(whole.usage)).toEqual(pick(streamed));
    expect(streamed.completion_tokens).toBe(10); // 37 characters, 4 a token (it counted 7 words not streamed)
  });

  it('records tracking headers with the usage', async () => {
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json', 'HTTP-Referer': 'https://app.example', 'X-Title': 'My App', 'X-Task-ID': 'task-42' },
      body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false }),
    });
    const body = await res.json();
    await h.runtime.settlements.flush();
    const rec = await (await db()).usageRecord.findUnique({ where: { id: body.id } });
    expect(rec).toMatchObject({ httpReferer: 'https://app.example', xTitle: 'My App', taskId: 'task-42', streamed: false, requestId: res.headers.get('x-request-id') });
  });
});
