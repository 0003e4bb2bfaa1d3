import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSse } from '../sse';
import type { StreamConverter, StreamDelta } from '../types';
import { createCompatibleStreamConverter } from './convert-stream';

/** Replays a recorded stream, 97 bytes at a time, through the shared SSE parser and a fresh converter. */
async function replay(scenario: string): Promise<{ deltas: StreamDelta[]; converter: StreamConverter }> {
  const bytes = readFileSync(path.join(__dirname, '__fixtures__', `${scenario}.chunks.txt`));
  const chunks = Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) => bytes.subarray(i * 97, (i + 1) * 97));
  const converter = createCompatibleStreamConverter();
  const deltas: StreamDelta[] = [];
  for await (const event of parseSse(chunks)) deltas.push(...converter.push(event));
  return { deltas, converter };
}

const usage = (promptTokens: number, completionTokens: number, cachedTokens = 0, reasoningTokens = 0) => ({ promptTokens, completionTokens, cachedTokens, cacheWriteTokens: 0, reasoningTokens });

describe('createCompatibleStreamConverter on recorded DeepSeek streams', () => {
  it('text: usage arrives on the finish chunk itself', async () => {
    const { deltas, converter } = await replay('text');
    expect(deltas).toEqual(['Hello', '!', ' How', ' can', ' I', ' help', ' you', ' today', '?'].map((content) => ({ content })));
    expect(converter.finishReason).toBe('stop');
    expect(converter.usage).toEqual(usage(11, 9));
    expect(converter.done).toBe(true);
    expect(converter.error).toBeNull();
  });

  it('tool_calls: two parallel calls, fragments passed through, cache hits counted', async () => {
    const { deltas, converter } = await replay('tool_calls');
    const fragments = ['{"', 'location', '":"'];
    expect(deltas).toEqual([
      { tool_calls: [{ index: 0, id: 'call_00_XkQ3pT8vR1mZ6yWc2bN9sLdF', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      ...[...fragments, 'Paris', ', France', '"}'].map((arguments_) => ({ tool_calls: [{ index: 0, function: { arguments: arguments_ } }] })),
      { tool_calls: [{ index: 1, id: 'call_01_Hf4jK7aP2qE5tY8uI0oW3rTz', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      ...[...fragments, 'Tokyo', ', Japan', '"}'].map((arguments_) => ({ tool_calls: [{ index: 1, function: { arguments: arguments_ } }] })),
    ]);
    expect(converter.finishReason).toBe('tool_calls');
    expect(converter.usage).toEqual(usage(263, 40, 192));
  });

  it('reasoning: keep-alive comments skipped, reasoning_content then content', async () => {
    const { deltas, converter } = await replay('reasoning');
    const thought = ['Okay', ',', ' the', ' user', ' asks', ' which', ' is', ' larger', ':', ' 9', '.', '11', ' or', ' 9', '.', '8', '.', ' Compare', ' tenths', ':', ' 8', ' >', ' 1', '.'];
    expect(deltas).toEqual([...thought.map((reasoning) => ({ reasoning })), ...['9', '.', '8', ' is', ' larger', '.'].map((content) => ({ content }))]);
    expect(converter.finishReason).toBe('stop');
    expect(converter.usage).toEqual(usage(18, 31, 0, 24));
    expect(converter.done).toBe(true);
    expect(converter.upstreamId).toBe('43a31dda-92f6-4cdf-a333-bb399599a824');
  });

  it('cached_usage: prompt_cache_hit_tokens becomes cachedTokens', async () => {
    const { deltas, converter } = await replay('cached_usage');
    expect(deltas.map((d) => d.content).join('')).toBe('It returns a new sorted list.');
    expect(converter.usage).toEqual(usage(1543, 7, 1472));
  });

  it('error_midstream: vLLM reports an engine error with a numeric code, then [DONE]', async () => {
    const { deltas, converter } = await replay('error_midstream');
    expect(deltas).toEqual([{ reasoning: 'Let' }, { reasoning: ' me' }, { reasoning: ' think' }]);
    expect(converter.error).toEqual({ code: 'server_error', message: 'The model ran out of KV cache blocks while decoding.' });
    expect(converter.finishReason).toBeNull();
    expect(converter.done).toBe(true);
  });

  it('truncated: reasoning so far, no finish, not done', async () => {
    const { deltas, converter } = await replay('truncated');
    expect(deltas).toEqual([{ reasoning: 'First' }, { reasoning: ',' }, { reasoning: ' list' }]);
    expect(converter.finishReason).toBeNull();
    expect(converter.usage).toBeNull();
    expect(converter.done).toBe(false);
  });
});

describe('createCompatibleStreamConverter dialect', () => {
  const push = (converter: StreamConverter, delta: object, finish_reason: string | null = null) =>
    converter.push({ data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason }] }) });

  it('reads `reasoning` (newer vLLM, Ollama) as well as `reasoning_content`', () => {
    const converter = createCompatibleStreamConverter();
    expect(push(converter, { reasoning: 'hmm', content: null })).toEqual([{ reasoning: 'hmm' }]);
    expect(push(converter, { reasoning_content: 'so', content: 'Yes' })).toEqual([{ reasoning: 'so', content: 'Yes' }]);
  });

  it("maps DeepSeek's insufficient_system_resource to error", () => {
    const converter = createCompatibleStreamConverter();
    push(converter, { content: '' }, 'insufficient_system_resource');
    expect(converter.finishReason).toBe('error');
  });
});
