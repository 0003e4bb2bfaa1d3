import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSse } from '@/server/providers/sse';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeHandler, type FakeUpstream } from './fake-upstream';

let upstream: FakeUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

async function start(handler: FakeHandler): Promise<FakeUpstream> {
  upstream = await startFakeUpstream(handler);
  return upstream;
}

const post = (url: string, body: unknown, signal?: AbortSignal) =>
  request(`${url}/v1/chat/completions?trace=1`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body: JSON.stringify(body), signal });

describe('fixtureChunks', () => {
  it('cuts a recording into SSE events that join back to the exact bytes', () => {
    const chunks = fixtureChunks('openai', 'text.chunks.txt');
    expect(chunks).toHaveLength(9);
    expect(chunks.every((c) => c.startsWith('data: ') && c.endsWith('\n\n'))).toBe(true);
    expect(chunks.at(-1)).toBe('data: [DONE]\n\n');
    expect(chunks.join('')).toBe(readFixture('openai', 'text.chunks.txt'));
  });

  it('keeps comments as their own chunks and a truncated tail as the last one', () => {
    expect(fixtureChunks('openai-compatible', 'reasoning').slice(0, 2)).toEqual([': keep-alive\n\n', ': keep-alive\n\n']);
    const truncated = fixtureChunks('openai', 'truncated');
    expect(truncated.at(-1)).toMatch(/^data: \{"id":"chatcmpl-[^\n]*$/);
    expect(truncated.join('')).toBe(readFixture('openai', 'truncated.chunks.txt'));
  });
});

describe('startFakeUpstream', () => {
  it('answers JSON and records method, path, headers and the parsed body', async () => {
    const fake = await start((req) => ({ status: 201, json: { echo: (req.body as { model: string }).model }, headers: { 'x-request-id': 'req_1' } }));
    const res = await post(fake.url, { model: 'gpt-4o-mini', messages: [] });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-request-id']).toBe('req_1');
    expect(await res.body.json()).toEqual({ echo: 'gpt-4o-mini' });
    expect(fake.url).toBe(`http://127.0.0.1:${fake.port}`);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions?trace=1',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: { model: 'gpt-4o-mini', messages: [] },
      aborted: false,
    });
    expect((await fake.whenClosed()).aborted).toBe(false);
  });

  it('answers text, and keeps a body that is not JSON raw', async () => {
    const fake = await start(() => ({ status: 502, text: '<html>Bad gateway</html>' }));
    const res = await request(fake.url, { method: 'POST', body: 'not json' });
    expect(res.statusCode).toBe(502);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(await res.body.text()).toBe('<html>Bad gateway</html>');
    expect(fake.requests[0]).toMatchObject({ body: undefined, rawBody: 'not json' });
  });

  it('replays a recorded stream that the shared SSE parser reads back', async () => {
    const fake = await start(() => ({ sse: fixtureChunks('openai', 'tool_calls') }));
    const res = await post(fake.url, { stream: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    const events = [];
    for await (const event of parseSse(res.body)) events.push(event);
    expect(events).toHaveLength(fixtureChunks('openai', 'tool_calls').length);
    expect(events.at(-1)).toEqual({ data: '[DONE]' });
  });

  it('waits delayMs between chunks', async () => {
    const fake = await start(() => ({ sse: ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n'], delayMs: 60 }));
    const started = performance.now();
    const res = await post(fake.url, {});
    expect(await res.body.text()).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('hangAfter keeps the connection open; a client abort is recorded', async () => {
    const fake = await start(() => ({ sse: fixtureChunks('openai', 'text'), hangAfter: 2 }));
    const controller = new AbortController();
    const res = await post(fake.url, {}, controller.signal);
    let received = '';
    const reading = (async () => {
      for await (const part of res.body) received += part.toString();
    })();
    await waitUntil(() => received.split('\n\n').length - 1 >= 2);
    expect(received).toBe(fixtureChunks('openai', 'text').slice(0, 2).join(''));
    controller.abort();
    await expect(reading).rejects.toThrow();
    expect((await fake.whenClosed(0)).aborted).toBe(true);
    expect(fake.requests[0].aborted).toBe(true);
  });

  it('destroyAfter cuts the socket after exactly that many chunks, which is not a client abort', async () => {
    const chunks = fixtureChunks('openai', 'text');
    const fake = await start(() => ({ sse: chunks, destroyAfter: 3 }));
    const res = await post(fake.url, {});
    let received = '';
    await expect(
      (async () => {
        for await (const part of res.body) received += part.toString();
      })(),
    ).rejects.toThrow();
    expect(received).toBe(chunks.slice(0, 3).join(''));
    expect((await fake.whenClosed()).aborted).toBe(false);
  });

  it('records an abort during a slow stream', async () => {
    const fake = await start(() => ({ sse: ['data: 1\n\n', 'data: 2\n\n'], delayMs: 5_000 }));
    const controller = new AbortController();
    const res = await post(fake.url, {}, controller.signal);
    const iterator = res.body[Symbol.asyncIterator]();
    expect((await iterator.next()).value.toString()).toBe('data: 1\n\n');
    controller.abort();
    expect((await fake.whenClosed()).aborted).toBe(true);
  });

  it('answers 500 when the handler throws, and supports async handlers', async () => {
    let calls = 0;
    const fake = await start(async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (calls === 2) throw new Error('no scenario for this');
      return { status: 429, json: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } };
    });
    const first = await post(fake.url, {});
    expect(first.statusCode).toBe(429);
    expect(first.headers['retry-after']).toBe('2');
    await first.body.dump();
    const second = await post(fake.url, {});
    expect(second.statusCode).toBe(500);
    expect(await second.body.text()).toBe('fake upstream handler failed: no scenario for this');
    expect(fake.requests).toHaveLength(2);
  });

  it('close() returns even with a stalled stream open', async () => {
    const fake = await start(() => ({ sse: ['data: 1\n\n', 'data: 2\n\n'], hangAfter: 1 }));
    const res = await post(fake.url, {});
    const reading = res.body.text().catch((err: unknown) => err);
    await fake.close();
    upstream = undefined;
    expect(await reading).toBeInstanceOf(Error);
    expect(fake.requests[0].aborted).toBe(false);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
