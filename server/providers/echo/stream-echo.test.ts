import { describe, expect, it } from 'vitest';
import { IMAGE_TOKENS } from '../estimate-tokens';
import type { ChatRequest, SseEvent, StreamDelta } from '../types';
import { createEchoAdapter, echoAdapter } from './index';
import { splitWords } from './echo-text';

const request = (messages: ChatRequest['messages']): ChatRequest => ({ model: 'switchboard/echo', messages, stream: true });

async function run(req: ChatRequest, signal = new AbortController().signal) {
  const converter = echoAdapter.createStreamConverter({
    model: { id: 'switchboard/echo', provider: 'echo', upstreamModel: 'echo', contextLength: 8192, maxOutputTokens: 8192, supportsReasoning: false, supportsImages: false },
    config: { baseUrl: '' },
  });
  const events: SseEvent[] = [];
  const deltas: StreamDelta[] = [];
  for await (const event of echoAdapter.local!.stream(req, signal)) {
    events.push(event);
    deltas.push(...converter.push(event));
  }
  return { events, deltas, converter };
}

describe('splitWords', () => {
  it('keeps the whitespace so the pieces join back to the text', () => {
    expect(splitWords('Hello, big  world\n')).toEqual(['Hello, ', 'big  ', 'world\n']);
    expect(splitWords('  leading')).toEqual(['  ', 'leading']);
    expect(splitWords('')).toEqual([]);
  });
});

describe('echoAdapter.local.stream', () => {
  it('streams the last user message word by word in OpenAI chunks, which the openai converter reads', async () => {
    const req = request([
      { role: 'system', content: 'You echo.' }, // 9 chars
      { role: 'user', content: 'first question' }, // 14
      { role: 'assistant', content: 'ok' }, // 2
      { role: 'user', content: [{ type: 'text', text: 'Hello, big ' }, { type: 'image_url', image_url: { url: 'https://example.com/x.png' } }, { type: 'text', text: 'world' }] }, // 16
    ]);
    const { events, deltas, converter } = await run(req);
    expect(deltas).toEqual([{ content: 'Hello, ' }, { content: 'big ' }, { content: 'world' }]);
    expect(converter.finishReason).toBe('stop');
    // 41 bytes of text → 11 tokens, and the image counts as an image (the gateway's one estimator); 16 characters of answer → 4
    expect(converter.usage).toEqual({ promptTokens: 11 + IMAGE_TOKENS, completionTokens: 4, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(converter.done).toBe(true);
    expect(converter.error).toBeNull();

    const first = JSON.parse(events[0].data);
    expect(first).toMatchObject({ object: 'chat.completion.chunk', model: 'switchboard/echo', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    expect(first.id).toMatch(/^chatcmpl-echo-/);
    expect(JSON.parse(events[events.length - 2].data).choices).toEqual([]);
    expect(events[events.length - 1]).toEqual({ data: '[DONE]' });
  });

  it('answers an empty conversation with an empty, finished stream', async () => {
    const { deltas, converter } = await run(request([{ role: 'system', content: 'abc' }]));
    expect(deltas).toEqual([]);
    expect(converter.usage).toEqual({ promptTokens: 1, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(converter.done).toBe(true);
  });

  it('stops with the abort reason when the signal fires', async () => {
    const controller = new AbortController();
    const seen: SseEvent[] = [];
    const consume = async () => {
      for await (const event of echoAdapter.local!.stream(request([{ role: 'user', content: 'one two three four' }]), controller.signal)) {
        seen.push(event);
        if (seen.length === 2) controller.abort(new Error('client went away'));
      }
    };
    await expect(consume()).rejects.toThrow('client went away');
    expect(seen).toHaveLength(2);
  });

  it('waits delayMs between chunks when asked, and an abort cuts the wait short', async () => {
    const slow = createEchoAdapter({ delayMs: 40 });
    const started = performance.now();
    let count = 0;
    for await (const _ of slow.local!.stream(request([{ role: 'user', content: 'a b' }]), new AbortController().signal)) count++;
    expect(count).toBe(6); // role, "a ", "b", finish, usage, [DONE]
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * 40 - 5);

    const controller = new AbortController();
    const iterator = slow.local!.stream(request([{ role: 'user', content: 'a b' }]), controller.signal)[Symbol.asyncIterator]();
    await iterator.next();
    setTimeout(() => controller.abort(), 5);
    const t0 = performance.now();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t0).toBeLessThan(35);
  });

  it('refuses to build an upstream request', () => {
    expect(() => echoAdapter.convertRequest(request([]), { model: {} as never, config: { baseUrl: '' } })).toThrow(expect.objectContaining({ code: 'internal' }));
  });
});
