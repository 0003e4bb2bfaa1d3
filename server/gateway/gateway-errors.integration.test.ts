// Bad input and failures through real HTTP: the spec's error body and status, never a 500 or a hang,
// never a silent stream cut, and nothing charged for what was not generated.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { db } from '@/server/db';
import { createLogger, replaceProcessLoggerForTests } from '@/server/observability/logger';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { microsToUsd } from '@/server/ledger/money';
import { RETRY } from '@/server/gateway/upstream-errors';
import { handleChatRequest } from '@/server/gateway/route-handler';
import { REQUEST_ID_HEADER } from '@/server/http/request-id';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { fundedUser, readSse, replay, settleAndReturnLeases, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('chat completions: errors', () => {
  let h: GatewayHarness;
  let key: string;
  let account: string;
  let userId: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    const u = await fundedUser(10);
    key = u.key;
    account = u.user.personal_account_id;
    userId = u.user.id;
    RETRY.baseDelayMs = 5;
  });
  afterAll(() => h?.close());
  // Each test starts with healthy provider keys: a 401 or repeated 5xx in one test cools the key (routing/key-health.ts).
  beforeEach(() => h.renewRuntime());

  const post = (body: unknown, headers: Record<string, string> = {}, k: string | null = key) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(k ? { authorization: `Bearer ${k}` } : {}), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function expectError(res: Response, status: number, code?: number | string) {
    expect(res.status).toBe(status);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = await res.json();
    expect(body.error).toBeDefined();
    expect(typeof body.error.message).toBe('string');
    expect(typeof body.error.metadata).toBe('object');
    expect(body.error.code).toBe(code ?? status);
    return body.error;
  }

  const ok = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false };

  it('401 without or with a bad credential', async () => {
    await expectError(await post(ok, {}, null), 401);
    await expectError(await post(ok, {}, 'sk-sb-v1-not-a-real-key'), 401);
    await expectError(await post(ok, {}, 'sk-proj-openai-key'), 401);
  });

  it('400 for malformed and invalid bodies', async () => {
    await expectError(await post('{"model": '), 400);
    await expectError(await post({ messages: [{ role: 'user', content: 'x' }] }), 400);
    await expectError(await post({ model: 'switchboard/echo', messages: [] }), 400);
    expect((await expectError(await post({ model: 'switchboard/echo', messages: [{ role: 'system', content: 'x' }] }), 400)).message).toMatch(/user message/);
    expect((await expectError(await post({ ...ok, temperature: 2.5 }), 400)).message).toMatch(/temperature/);
    await expectError(await post({ model: 'switchboard/echo', messages: [{ role: 'wizard', content: 'x' }] }), 400);
    await expectError(await post({ model: 'switchboard/echo', messages: [{ role: 'user', content: [{ type: 'audio', data: 'x' }] }] }), 400);
    const orphan = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'call_nope', content: '{}' }] };
    expect((await expectError(await post(orphan), 400)).message).toMatch(/tool_call_id/);
  });

  it('ignores unknown fields', async () => {
    const res = await post({ ...ok, frequency_penalty: 0.5, logit_bias: {}, some_future_param: true });
    expect(res.status).toBe(200);
  });

  it('404 for an unknown model, 400 for images to a text-only model', async () => {
    expect((await expectError(await post({ ...ok, model: 'openai/gpt-99' }), 404)).message).toMatch(/gpt-99/);
    const img = { model: 'deepseek/deepseek-v4-pro', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] };
    const err = await expectError(await post(img), 400);
    expect(err.message).toMatch(/deepseek\/deepseek-v4-pro/);
    expect(err.message).toMatch(/supportsImages/);
  });

  it('413 for a body over the limit', async () => {
    const res = await post({ ...ok, messages: [{ role: 'user', content: 'x'.repeat(26 * 1024 * 1024) }] });
    await expectError(res, 413);
  });

  it('402 with the balance when credit does not cover the worst case', async () => {
    const poor = await fundedUser(0);
    const err = await expectError(await post(ok, {}, poor.key), 402);
    expect(err.metadata).toMatchObject({ balance: 0 });
    expect(err.metadata.add_credits_url).toBeDefined();
  });

  it('upstream 429 → 429 with Retry-After, not retried, nothing charged', async () => {
    let calls = 0;
    h.respond = () => (calls++, { status: 429, json: JSON.parse(readFixture('openai', 'rate_limited.error.json')), headers: { 'retry-after': '7', 'x-request-id': 'req_up_1' } });
    await h.runtime.settlements.flush(); // earlier tests' charges may still be queued: they must land before 'before'
    const before = await getBalanceOrThrow(account);
    const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    expect(res.headers.get('retry-after')).toBe('7');
    const err = await expectError(res, 429);
    expect(err.metadata).toMatchObject({ provider: 'openai', upstream_status: 429, upstream_request_id: 'req_up_1' });
    expect(calls).toBe(1);
    await settleAndReturnLeases(h);
    const after = await getBalanceOrThrow(account);
    expect(after.totalMicros).toBe(before.totalMicros);
    expect(after.reservedMicros).toBe(0n);
  });

  it('upstream 5xx is retried before the first byte, then 502', async () => {
    let calls = 0;
    h.respond = () => (calls++, { status: 500, json: { error: { message: 'boom', type: 'server_error' } } });
    await expectError(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }), 502);
    expect(calls).toBe(RETRY.attempts);
    calls = 0;
    const good = replay('openai', 'text');
    h.respond = (r) => (calls++ === 0 ? { status: 503, json: { error: { message: 'overloaded' } } } : good(r));
    expect((await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: false })).status).toBe(200);
  });

  it('upstream auth failure is a 502 that does not leak our provider key', async () => {
    h.respond = () => ({ status: 401, json: JSON.parse(readFixture('openai', 'unauthorized.error.json')) });
    const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    const text = await res.clone().text();
    await expectError(res, 502);
    expect(text).not.toContain('SECRET');
  });

  it('context too long: 400 context_length_exceeded when not streaming, an error chunk when streaming', async () => {
    h.respond = () => ({ status: 400, json: JSON.parse(readFixture('openai', 'context_length_exceeded.error.json')) });
    await expectError(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: false }), 400, 'context_length_exceeded');
    const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    expect(chunks.at(-1).choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'context_length_exceeded' } });
  });

  it('context too long on a streaming /messages or /responses request: an HTTP 400 in the format’s shape before any event, as Anthropic and OpenAI answer', async () => {
    h.respond = () => ({ status: 400, json: JSON.parse(readFixture('openai', 'context_length_exceeded.error.json')) });
    const send = (path: string, body: unknown) =>
      fetch(`${h.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    const messages = await send('/messages', { model: 'openai/gpt-4o-mini', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(messages.status).toBe(400);
    expect(messages.headers.get('content-type')).toContain('application/json');
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('maximum context length') } });
    const responses = await send('/responses', { model: 'openai/gpt-4o-mini', stream: true, input: 'x' });
    expect(responses.status).toBe(400);
    expect((await responses.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'context_length_exceeded' });
  });

  it('a mid-stream upstream error ends with an error chunk and [DONE], charging what was generated', async () => {
    h.respond = replay('anthropic', 'error_midstream');
    const { chunks, done } = await readSse(await post({ model: 'anthropic/claude-haiku-4.5', messages: [{ role: 'user', content: 'x' }] }));
    expect(done).toBe(true);
    const last = chunks.at(-1);
    expect(last.choices[0].finish_reason).toBe('error');
    expect(last.choices[0].error.code).toBe('server_error');
    expect(last.usage.cost).toBeGreaterThan(0);
    await h.runtime.settlements.flush();
    const rec = await (await db()).usageRecord.findUnique({ where: { id: last.id } });
    expect(rec).toMatchObject({ status: 'ERROR', errorCode: 'server_error' });
    expect(microsToUsd(rec!.costMicros)).toBe(last.usage.cost);
  });

  it('an upstream that closes without finishing is a server_error chunk, never a silent cut', async () => {
    h.respond = replay('openai', 'truncated');
    const { chunks, done } = await readSse(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }));
    expect(done).toBe(true);
    expect(chunks.at(-1).choices[0]).toMatchObject({ finish_reason: 'error', error: { code: 'server_error' } });
  });

  it('a destroyed upstream socket mid-stream is a server_error chunk', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), destroyAfter: 2 });
    const { chunks, done } = await readSse(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }));
    expect(done).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('error');
  });

  it('sends SSE keep-alive comments while the upstream is slow', async () => {
    await h.renewRuntime({ streamKeepAliveMs: 100 });
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), delayMs: 400 });
    const { comments, done } = await readSse(await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }));
    await h.renewRuntime();
    expect(done).toBe(true);
    expect(comments).toBeGreaterThan(0);
  });

  it('a client that disconnects aborts the upstream request promptly and is recorded as aborted', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), delayMs: 200 });
    const controller = new AbortController();
    const res = await post({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }, {}, key);
    void controller;
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    const req = h.upstream.requests.at(-1)!;
    for (let i = 0; i < 50 && !req.aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(req.aborted).toBe(true);
    await settleAndReturnLeases(h);
    const rec = await (await db()).usageRecord.findFirst({ where: { userId, status: 'ABORTED' }, orderBy: { createdAt: 'desc' } });
    expect(rec).not.toBeNull();
    // The upstream never finished it: no finish reason (it was recorded as "stop").
    expect(rec!.finishReason).toBeNull();
    expect((await getBalanceOrThrow(account)).reservedMicros).toBe(0n);
  });

  it('a client that leaves before a non-streamed answer is recorded as aborted, not logged as a server fault', async () => {
    let answered!: () => void;
    const upstreamAnswered = new Promise<void>((resolve) => (answered = resolve));
    h.respond = async () => {
      await new Promise((r) => setTimeout(r, 300));
      setTimeout(answered, 50);
      return { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) };
    };
    const logged: string[] = [];
    const restoreLogger = replaceProcessLoggerForTests(createLogger({ level: 'info', destination: new Writable({ write: (chunk, _enc, done) => (logged.push(String(chunk)), done()) }) }));
    try {
      const controller = new AbortController();
      const sent = fetch(`${h.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'leaving early' }] }),
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 100);
      await expect(sent).rejects.toThrow();
      await upstreamAnswered;
      await settleAndReturnLeases(h);
    } finally {
      restoreLogger();
    }
    const rec = await (await db()).usageRecord.findFirst({ where: { userId, status: 'ABORTED' }, orderBy: { createdAt: 'desc' } });
    expect(rec).toMatchObject({ errorCode: 'client_closed', costMicros: 0n });
    expect(logged.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50)).toEqual([]);
    expect((await getBalanceOrThrow(account)).reservedMicros).toBe(0n);
  });

  it('behind a Next route, the answer and its usage record keep the id server/main.ts gave the request (its access log line has it)', async () => {
    const assigned = 'req_' + 'A1b2C3d4E5f6G7h8';
    const res = await handleChatRequest(
      h.runtime,
      new Request('http://localhost/api/v1/chat/completions', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', [REQUEST_ID_HEADER]: assigned }, body: JSON.stringify(ok) }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(assigned);
    const generationId = (await res.json()).id;
    await settleAndReturnLeases(h);
    expect(await (await db()).usageRecord.findUnique({ where: { id: generationId }, select: { requestId: true } })).toEqual({ requestId: assigned });
  });

  it('a deleted key is refused on the very next request', async () => {
    const u = await fundedUser(1);
    expect((await post(ok, {}, u.key)).status).toBe(200);
    await deleteApiKey({ userId: u.user.id, keyId: u.apiKey.id });
    await expectError(await post(ok, {}, u.key), 401);
  });
});
