import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSseParser, UNFRAMED_TAIL_EVENT } from '../sse';
import type { StreamConverter, StreamDelta } from '../types';
import { createOpenAIStreamConverter } from './convert-stream';

/** Replays a recorded stream through the shared SSE parser and a fresh converter, in chunks of `size` bytes. */
function replay(scenario: string, size = Infinity): { deltas: StreamDelta[]; converter: StreamConverter } {
  const bytes = readFileSync(path.join(__dirname, '__fixtures__', `${scenario}.chunks.txt`));
  const parser = createSseParser();
  const converter = createOpenAIStreamConverter();
  const deltas: StreamDelta[] = [];
  const feed = (events: ReturnType<typeof parser.end>) => events.forEach((e) => deltas.push(...converter.push(e)));
  for (let i = 0; i < bytes.length; i += Math.min(size, bytes.length)) feed(parser.push(bytes.subarray(i, i + size)));
  feed(parser.end());
  return { deltas, converter };
}

function push(converter: StreamConverter, ...chunks: unknown[]): StreamDelta[] {
  return chunks.flatMap((c) => converter.push({ data: typeof c === 'string' ? c : JSON.stringify(c) }));
}

describe('createOpenAIStreamConverter on recorded streams', () => {
  it('text: one delta per token, then stop, usage from the choices-less last chunk, then [DONE]', () => {
    const { deltas, converter } = replay('text');
    expect(deltas).toEqual([{ content: 'Hello' }, { content: ' there' }, { content: ',' }, { content: ' friend' }, { content: '!' }]);
    expect(converter.finishReason).toBe('stop');
    expect(converter.usage).toEqual({ promptTokens: 14, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(converter.error).toBeNull();
    expect(converter.done).toBe(true);
    expect(converter.upstreamId).toBe('chatcmpl-CJ3mQ8nV0pZkXyT2bR7sLwE4hGfDa');
  });

  it('tool_calls: passes two parallel calls through fragment by fragment', () => {
    const { deltas, converter } = replay('tool_calls');
    expect(deltas).toEqual([
      { tool_calls: [{ index: 0, id: 'call_Rk3uVb9XnQ2mT7yLp0WsZc4E', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      ...['{"lo', 'cation', '": "Par', 'is, Fr', 'ance"}'].map((a) => ({ tool_calls: [{ index: 0, function: { arguments: a } }] })),
      { tool_calls: [{ index: 1, id: 'call_a8GhJ1sD5fKq2WxE9rTy6UoP', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      ...['{"lo', 'cation', '": "Tok', 'yo, J', 'apan"}'].map((a) => ({ tool_calls: [{ index: 1, function: { arguments: a } }] })),
    ]);
    const args = [0, 1].map((i) =>
      deltas
        .flatMap((d) => d.tool_calls ?? [])
        .filter((t) => t.index === i)
        .map((t) => t.function.arguments)
        .join(''),
    );
    expect(args.map((a) => JSON.parse(a))).toEqual([{ location: 'Paris, France' }, { location: 'Tokyo, Japan' }]);
    expect(converter.finishReason).toBe('tool_calls');
    expect(converter.usage).toEqual({ promptTokens: 82, completionTokens: 47, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(converter.done).toBe(true);
  });

  it('reasoning: hidden reasoning is billed through completion_tokens_details', () => {
    const { deltas, converter } = replay('reasoning');
    expect(deltas.map((d) => d.content).join('')).toBe('There are three r\'s in "strawberry".');
    expect(deltas.every((d) => d.reasoning === undefined)).toBe(true);
    expect(converter.usage).toEqual({ promptTokens: 19, completionTokens: 209, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 192 });
  });

  it('cached_usage: reads prompt_tokens_details.cached_tokens', () => {
    const { deltas, converter } = replay('cached_usage');
    expect(deltas.map((d) => d.content).join('')).toBe('Yes, the refund window is 30 days.');
    expect(converter.usage).toEqual({ promptTokens: 2006, completionTokens: 9, cachedTokens: 1920, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('error_midstream: keeps the text sent so far and reports the error chunk', () => {
    const { deltas, converter } = replay('error_midstream');
    expect(deltas).toEqual([{ content: 'The' }, { content: ' first' }, { content: ' step' }]);
    expect(converter.error).toEqual({ code: 'server_error', message: 'The server had an error while processing your request. Sorry about that!' });
    expect(converter.finishReason).toBeNull();
    expect(converter.usage).toBeNull();
    expect(converter.done).toBe(false);
  });

  it('keeps the message of an {"error":…} body that ends the stream unframed, and ignores any other tail', () => {
    // OpenAI's documented error object (as in error_midstream), arriving without SSE framing (sse.ts).
    const tail = { event: UNFRAMED_TAIL_EVENT, data: '{"error":{"message":"The server is overloaded.","type":"server_error","param":null,"code":null}}' };
    const failing = createOpenAIStreamConverter();
    failing.push({ data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}' });
    failing.push(tail);
    expect(failing.error?.message).toBe('The server is overloaded.');
    const finished = createOpenAIStreamConverter();
    finished.push({ data: '[DONE]' });
    finished.push(tail);
    finished.push({ event: UNFRAMED_TAIL_EVENT, data: 'garbage' });
    expect(finished.error).toBeNull();
  });

  it('truncated: a stream cut mid-event ends with no finish reason, no [DONE] and no error', () => {
    const { deltas, converter } = replay('truncated');
    expect(deltas).toEqual([{ content: 'Once' }, { content: ' upon' }, { content: ' a' }]);
    expect(converter.finishReason).toBeNull();
    expect(converter.done).toBe(false);
    expect(converter.error).toBeNull();
  });

  it('gives the same result whatever the network chunk size', () => {
    const whole = replay('tool_calls');
    for (const size of [1, 7, 64, 1000]) {
      const split = replay('tool_calls', size);
      expect(split.deltas).toEqual(whole.deltas);
      expect(split.converter.usage).toEqual(whole.converter.usage);
    }
  });
});

describe('createOpenAIStreamConverter edge cases', () => {
  const chunk = (delta: object, finish_reason: string | null = null) => ({ choices: [{ index: 0, delta, finish_reason }] });

  it('ignores everything after [DONE]', () => {
    const converter = createOpenAIStreamConverter();
    expect(push(converter, chunk({ content: 'a' }), '[DONE]', chunk({ content: 'b' }, 'length'))).toEqual([{ content: 'a' }]);
    expect(converter.finishReason).toBeNull();
    expect(converter.done).toBe(true);
  });

  it('reports a chunk that is not JSON, or not a chunk, as a server error', () => {
    const converter = createOpenAIStreamConverter();
    expect(push(converter, '{"choices":[{"delta":{"content":"x"')).toEqual([]);
    expect(converter.error?.code).toBe('server_error');
    const other = createOpenAIStreamConverter();
    push(other, { choices: 'nope' });
    expect(other.error?.code).toBe('server_error');
  });

  it('maps mid-stream error codes', () => {
    const cases: Array<[object, string]> = [
      [{ message: 'too long', type: 'invalid_request_error', code: 'context_length_exceeded' }, 'context_length_exceeded'],
      [{ message: 'slow down', type: 'tokens', code: 'rate_limit_exceeded' }, 'rate_limit'],
      [{ message: 'flagged', type: 'invalid_request_error', code: 'content_filter' }, 'content_filter'],
      [{ message: 'boom', type: 'InternalServerError', code: 500 }, 'server_error'],
    ];
    for (const [error, code] of cases) {
      const converter = createOpenAIStreamConverter();
      push(converter, { error });
      expect(converter.error?.code).toBe(code);
    }
  });

  it('shows a structured-output refusal as content', () => {
    const converter = createOpenAIStreamConverter();
    expect(push(converter, chunk({ content: null, refusal: "I'm sorry, " }), chunk({ refusal: 'I cannot help.' }, 'stop'))).toEqual([
      { content: "I'm sorry, " },
      { content: 'I cannot help.' },
    ]);
  });

  it('numbers tool calls that arrive without an index by their id', () => {
    const converter = createOpenAIStreamConverter();
    const deltas = push(
      converter,
      chunk({ tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] }),
      chunk({ tool_calls: [{ id: 'b', type: 'function', function: { name: 'g', arguments: { y: 2 } } }] }, 'tool_calls'),
    );
    expect(deltas).toEqual([
      { tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
      { tool_calls: [{ index: 1, id: 'b', type: 'function', function: { name: 'g', arguments: '{"y":2}' } }] },
    ]);
    expect(converter.finishReason).toBe('tool_calls');
  });

  it('maps function_call to tool_calls and keeps usage sent on the finish chunk', () => {
    const converter = createOpenAIStreamConverter();
    push(converter, { ...chunk({}, 'function_call'), usage: { prompt_tokens: 3, completion_tokens: 2 } });
    expect(converter.finishReason).toBe('tool_calls');
    expect(converter.usage).toEqual({ promptTokens: 3, completionTokens: 2, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });
});

describe('createOpenAIStreamConverter text fast path', () => {
  // Plain text chunks skip the schema; these pin that both readings agree at the edges of "plain".
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini' };
  const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ ...base, ...extra, choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }] });

  it('reads text, the role-only first chunk, null content and a null refusal like the schema does', () => {
    const c = createOpenAIStreamConverter();
    expect(push(c, chunk({ delta: { role: 'assistant', content: '' } }), chunk({ delta: { content: 'Hi', refusal: null } }), chunk({ delta: { content: null } }), chunk({ delta: {} }))).toEqual([{ content: 'Hi' }]);
    expect(c.upstreamId).toBe('chatcmpl-1');
    expect(c.finishReason).toBeNull();
  });

  it('leaves everything else to the schema: reasoning fields, tool calls, finish reasons, usage, bad types; other choices keep their index', () => {
    const reasoning = createOpenAIStreamConverter({ readReasoning: (d) => (typeof d.reasoning_content === 'string' ? d.reasoning_content : undefined) });
    expect(push(reasoning, chunk({ delta: { reasoning_content: 'think', content: '' } }))).toEqual([{ reasoning: 'think' }]);

    const c = createOpenAIStreamConverter();
    expect(push(c, chunk({ delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] } }))).toEqual([
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
    ]);
    // n > 1: another choice's delta names it; its finish reason is kept apart from choice 0's.
    expect(push(c, chunk({ index: 1, delta: { content: 'second choice' } }))).toEqual([{ choice: 1, content: 'second choice' }]);
    expect(push(c, chunk({ index: 1, delta: { tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] }, finish_reason: 'tool_calls' }))).toEqual([
      { choice: 1, tool_calls: [{ index: 0, id: 'call_2', type: 'function', function: { name: 'g', arguments: '{}' } }] },
    ]);
    expect(push(c, chunk({ delta: { content: 'last' }, finish_reason: 'length' }, { usage: { prompt_tokens: 3, completion_tokens: 4 } }))).toEqual([{ content: 'last' }]);
    expect(c.finishReason).toBe('length');
    expect(c.otherFinishReasons).toEqual(new Map([[1, 'tool_calls']]));
    expect(c.usage).toMatchObject({ promptTokens: 3, completionTokens: 4 });

    const bad = createOpenAIStreamConverter();
    expect(push(bad, chunk({ delta: { content: 42 } }))).toEqual([]);
    expect(bad.error?.code).toBe('server_error');
  });
});
