import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../sse';
import type { SseEvent } from '../types';
import { createGeminiStreamConverter } from './convert-stream';

const read = (name: string) => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');

function events(scenario: string): SseEvent[] {
  const parser = createSseParser();
  return [...parser.push(read(`${scenario}.chunks.txt`)), ...parser.end()];
}

function run(input: string | SseEvent[]) {
  const converter = createGeminiStreamConverter();
  const deltas = (typeof input === 'string' ? events(input) : input).flatMap((event) => converter.push(event));
  return { converter, deltas };
}

const signatureOf = (scenario: string, marker: string) => new RegExp(`"thoughtSignature": "(${marker}[^"]+)"`).exec(read(`${scenario}.chunks.txt`))![1];

describe('createGeminiStreamConverter', () => {
  it('fixtures are framed as Gemini frames them: data lines separated by CRLF CRLF', () => {
    expect(read('text.chunks.txt')).toMatch(/^data: \{.*\}\r\n\r\ndata: /);
    expect(events('text')).toHaveLength(3);
  });

  it('streams text, is done only at the chunk with finishReason and keeps the last usage', () => {
    const all = events('text');
    const converter = createGeminiStreamConverter();
    const early = all.slice(0, 2).flatMap((e) => converter.push(e));
    expect(early).toEqual([{ content: 'The capital of France is' }, { content: " **Paris**. It is also the country's largest city." }]);
    expect(converter).toMatchObject({ done: false, finishReason: null, error: null });
    expect(converter.usage).toEqual({ promptTokens: 9, completionTokens: 17, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });

    expect(converter.push(all[2])).toEqual([{ content: '\n' }]);
    expect(converter).toMatchObject({ done: true, finishReason: 'stop', error: null, upstreamId: 'kq0SaO2dIPiT1MkP0uK8wQ0' });
    expect(converter.usage).toEqual({ promptTokens: 9, completionTokens: 18, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('emits each whole function call as one tool_calls delta and ties the signature to its id', () => {
    const { converter, deltas } = run('function_call');
    const [thought, first, signature, second] = deltas;
    expect(deltas).toHaveLength(4);
    expect(thought).toEqual({
      reasoning: expect.stringMatching(/^\*\*Planning the weather lookups\*\*/),
      reasoning_details: [{ type: 'reasoning.text', text: thought.reasoning, format: 'google-gemini-v1', index: 0 }],
    });
    const firstId = first.tool_calls?.[0].id;
    expect(first).toEqual({
      tool_calls: [{ index: 0, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris","unit":"celsius"}' } }],
    });
    expect(signature).toEqual({
      reasoning_details: [{ type: 'reasoning.encrypted', data: signatureOf('function_call', 'CrEDAV'), format: 'google-gemini-v1', id: firstId, index: 1 }],
    });
    expect(second).toEqual({
      tool_calls: [{ index: 1, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"location":"London","unit":"celsius"}' } }],
    });
    expect(second.tool_calls?.[0].id).not.toBe(firstId);
    expect(converter).toMatchObject({ done: true, finishReason: 'tool_calls', error: null });
    expect(converter.usage).toEqual({ promptTokens: 96, completionTokens: 205, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 167 });
  });

  it('keeps one reasoning index across thought chunks and surfaces the closing empty part’s signature', () => {
    const { converter, deltas } = run('thinking');
    expect(deltas.map((d) => d.reasoning_details?.map((r) => [r.type, r.index]))).toEqual([
      [['reasoning.text', 0]],
      [['reasoning.text', 0]],
      undefined,
      [['reasoning.encrypted', 1]],
    ]);
    expect(deltas[2]).toEqual({ content: '17 + 25 = **42**.' });
    expect(deltas[3].reasoning_details?.[0]).toEqual({ type: 'reasoning.encrypted', data: signatureOf('thinking', 'Ev4M'), format: 'google-gemini-v1', index: 1 });
    expect(deltas[3]).not.toHaveProperty('content');
    expect(converter).toMatchObject({ done: true, finishReason: 'stop' });
    expect(converter.usage).toEqual({ promptTokens: 14, completionTokens: 607, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 598 });
  });

  it('ends with content_filter when safety stops the candidate mid-stream', () => {
    const { converter, deltas } = run('safety');
    expect(deltas).toEqual([{ content: 'Here is a general overview of how' }]);
    expect(converter).toMatchObject({ done: true, finishReason: 'content_filter', error: null });
  });

  it('reports a blocked prompt as content_filter with an error and the prompt usage', () => {
    const { converter, deltas } = run('prompt_blocked');
    expect(deltas).toEqual([]);
    expect(converter).toMatchObject({
      done: true,
      finishReason: 'content_filter',
      error: { code: 'content_filter', message: 'Gemini blocked the prompt (PROHIBITED_CONTENT)' },
      usage: { promptTokens: 17, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it('turns an error data line into converter.error after the content already sent', () => {
    const { converter, deltas } = run('error_midstream');
    expect(deltas).toEqual([{ content: 'Photosynthesis converts light energy into' }]);
    expect(converter).toMatchObject({ done: true, finishReason: 'error', error: { code: 'server_error', message: expect.stringMatching(/^An internal error has occurred/) } });
  });

  it("keeps Gemini's own message when the stream ends with a bare error object instead of a data line", () => {
    // The fixture: a text chunk, then Gemini's documented 503 google.rpc.Status, pretty-printed and unframed, as
    // reported from the API in vercel/ai#5217.
    const { converter, deltas } = run('overloaded_midstream');
    expect(deltas).toEqual([{ content: 'Okay' }]);
    expect(converter).toMatchObject({ done: true, finishReason: 'error', error: { code: 'server_error', message: 'The model is overloaded. Please try again later.' } });
  });

  it.each([
    [{ code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' }, 'rate_limit'],
    [{ code: 400, message: 'The input token count (1100000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' }, 'context_length_exceeded'],
    [{ code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' }, 'server_error'],
  ])('maps a mid-stream %j', (error, code) => {
    expect(run([{ data: JSON.stringify({ error }) }]).converter.error).toEqual({ code, message: error.message });
  });

  it('records an unreadable chunk as an error instead of throwing', () => {
    const { converter, deltas } = run([{ data: '{"candidates": [' }]);
    expect(deltas).toEqual([]);
    expect(converter.error).toEqual({ code: 'server_error', message: 'Gemini sent a stream chunk that is not JSON' });
  });
});
