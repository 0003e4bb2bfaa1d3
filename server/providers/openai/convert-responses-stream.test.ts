// The Responses API fixtures (__fixtures__/responses_*.chunks.txt, responses_*.json) are built from the
// event and object shapes OpenAI documents for the Responses API ("Streaming API responses", the API
// reference's streaming events, the reasoning-items cookbook) with GPT-6 model names and usage counters,
// not recorded from OpenAI: this machine has no GPT-6 key. Their ids and encrypted content are made up.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../sse';
import type { AssistantMessage, ReasoningDetail, StreamConverter, StreamDelta, ToolCall } from '../types';
import { convertResponsesResponse } from './convert-responses-response';
import { createResponsesStreamConverter } from './convert-responses-stream';

const fixture = (file: string) => readFileSync(path.join(__dirname, '__fixtures__', file));

/** Replays a stream through the shared SSE parser and a fresh converter, in chunks of `size` bytes. */
function replay(scenario: string, size = Infinity): { deltas: StreamDelta[]; converter: StreamConverter } {
  const bytes = fixture(`${scenario}.chunks.txt`);
  const parser = createSseParser();
  const converter = createResponsesStreamConverter();
  const deltas: StreamDelta[] = [];
  const feed = (events: ReturnType<typeof parser.end>) => events.forEach((e) => deltas.push(...converter.push(e)));
  for (let i = 0; i < bytes.length; i += Math.min(size, bytes.length)) feed(parser.push(bytes.subarray(i, i + size)));
  feed(parser.end());
  return { deltas, converter };
}

/** What a client that concatenates deltas (reasoning_details and tool calls by index) ends up with. */
function accumulate(deltas: StreamDelta[]): AssistantMessage {
  let content = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const calls: ToolCall[] = [];
  for (const delta of deltas) {
    content += delta.content ?? '';
    reasoning += delta.reasoning ?? '';
    for (const detail of delta.reasoning_details ?? []) {
      const at = details.findIndex((d) => d.index === detail.index);
      if (at < 0) details.push({ ...detail });
      else if (detail.type === 'reasoning.summary' && details[at].type === 'reasoning.summary') details[at] = { ...details[at], summary: (details[at] as { summary: string }).summary + detail.summary };
    }
    for (const call of delta.tool_calls ?? []) {
      calls[call.index] ??= { id: call.id ?? '', type: 'function', function: { name: call.function.name ?? '', arguments: '' } };
      calls[call.index].function.arguments += call.function.arguments ?? '';
    }
  }
  return { role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls } : {}), ...(details.length ? { reasoning: reasoning || null, reasoning_details: details } : {}) };
}

describe('createResponsesStreamConverter', () => {
  it('tool call with reasoning: summary parts as reasoning, the encrypted item, then the call; usage with cache writes', () => {
    const { deltas, converter } = replay('responses_tool_call');
    expect(deltas[0]).toEqual({
      reasoning: '**Checking the weather request**\n\n',
      reasoning_details: [{ type: 'reasoning.summary', summary: '**Checking the weather request**\n\n', format: 'openai-responses-v1', index: 0, id: 'rs_68f2c1a9d4e081a3b7c2e5f0a1d4b6c8' }],
    });
    // The second summary part starts a new paragraph.
    expect(deltas[2].reasoning).toBe('\n\n**Calling the tool**\n\n');
    expect(deltas.find((d) => d.tool_calls)?.tool_calls).toEqual([{ index: 0, id: 'call_Xk3mQ9vT2pLw7RnB5sYc1dHf', type: 'function', function: { name: 'get_weather', arguments: '' } }]);
    expect(converter.finishReason).toBe('tool_calls');
    expect(converter.usage).toEqual({ promptTokens: 2310, completionTokens: 96, cachedTokens: 1024, cacheWriteTokens: 1152, reasoningTokens: 64 });
    expect(converter.done).toBe(true);
    expect(converter.error).toBeNull();
    expect(converter.upstreamId).toBe('resp_68f2c1a7b3d881a3b4e6f8a0c2d4e6f8');
  });

  it('rebuilds, delta by delta, exactly what the non-streaming converter returns for the same response', () => {
    const streamed = accumulate(replay('responses_tool_call', 7).deltas);
    const whole = convertResponsesResponse(JSON.parse(fixture('responses_tool_call.json').toString()));
    expect(streamed).toEqual(whole.message);
    expect(whole.message.tool_calls).toEqual([{ id: 'call_Xk3mQ9vT2pLw7RnB5sYc1dHf', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    expect(whole.message.reasoning_details?.map((d) => d.type)).toEqual(['reasoning.summary', 'reasoning.encrypted']);
    expect(whole).toMatchObject({ finishReason: 'tool_calls', upstreamId: 'resp_68f2c1a7b3d881a3b4e6f8a0c2d4e6f8', usage: { cacheWriteTokens: 1152 } });
  });

  it('text without reasoning: content deltas, stop, and the same message as the non-streaming body', () => {
    const { deltas, converter } = replay('responses_text');
    expect(deltas).toEqual([{ content: 'Paris' }, { content: ' is the capital' }, { content: ' of France' }, { content: '.' }]);
    expect(converter.finishReason).toBe('stop');
    expect(converter.usage).toEqual({ promptTokens: 14, completionTokens: 8, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(convertResponsesResponse(JSON.parse(fixture('responses_text.json').toString())).message).toEqual({ role: 'assistant', content: 'Paris is the capital of France.' });
  });

  it('incomplete at max_output_tokens ends the stream with finish reason length', () => {
    const { deltas, converter } = replay('responses_incomplete');
    expect(deltas).toEqual([{ content: 'Once upon a time, a' }]);
    expect(converter).toMatchObject({ finishReason: 'length', done: true, error: null });
    expect(converter.usage?.reasoningTokens).toBe(10);
  });

  it('a failed response ends the stream with its error', () => {
    const { deltas, converter } = replay('responses_failed');
    expect(deltas).toEqual([]);
    expect(converter.done).toBe(true);
    expect(converter.error).toEqual({ code: 'server_error', message: 'The server had an error processing your request. Sorry about that!' });
  });

  it('an error event, a call whose arguments never streamed, and events it does not know', () => {
    const converter = createResponsesStreamConverter();
    const push = (data: unknown) => converter.push({ data: JSON.stringify(data) });
    expect(push({ type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'call_1', name: 'ping', arguments: '' } })).toEqual([
      { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'ping', arguments: '' } }] },
    ]);
    expect(push({ type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', call_id: 'call_1', name: 'ping', arguments: '' } })).toEqual([
      { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
    ]);
    expect(push({ type: 'response.web_search_call.searching', output_index: 1 })).toEqual([]);
    push({ type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-6.2-sol', param: null });
    expect(converter.error).toEqual({ code: 'rate_limit', message: 'The upstream provider is rate limiting requests; retry later' });
    expect(converter.push({ data: 'not json' })).toEqual([]);
  });
});
