import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSseParser, UNFRAMED_TAIL_EVENT } from '@/server/providers/sse';
import type { AssistantMessage, ReasoningDetail, SseEvent, StreamDelta, ToolCall } from '@/server/providers/types';
import { convertResponse } from './convert-response';
import { createStreamConverter } from './convert-stream';

const read = (name: string): string => readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8');

function events(scenario: string): SseEvent[] {
  const parser = createSseParser();
  return [...parser.push(read(`${scenario}.chunks.txt`)), ...parser.end()];
}

function run(input: string | SseEvent[]) {
  const converter = createStreamConverter();
  const deltas = (typeof input === 'string' ? events(input) : input).flatMap((event) => converter.push(event));
  return { converter, deltas };
}

/** Rebuilds the message the way an OpenAI client does: concatenate by index. */
function accumulate(deltas: StreamDelta[]): AssistantMessage {
  let content: string | null = null;
  let reasoning: string | null = null;
  const details = new Map<number, ReasoningDetail>();
  const calls = new Map<number, ToolCall>();
  for (const delta of deltas) {
    if (delta.content !== undefined) content = (content ?? '') + delta.content;
    if (delta.reasoning !== undefined) reasoning = (reasoning ?? '') + delta.reasoning;
    for (const detail of delta.reasoning_details ?? []) {
      const seen = details.get(detail.index!);
      if (!seen) details.set(detail.index!, { ...detail });
      else if (seen.type === 'reasoning.text' && detail.type === 'reasoning.text') {
        seen.text += detail.text;
        if (detail.signature) seen.signature = detail.signature;
      }
    }
    for (const call of delta.tool_calls ?? []) {
      const seen = calls.get(call.index) ?? { id: call.id!, type: 'function' as const, function: { name: call.function.name!, arguments: '' } };
      seen.function.arguments += call.function.arguments ?? '';
      calls.set(call.index, seen);
    }
  }
  return {
    role: 'assistant',
    content,
    ...(calls.size > 0 ? { tool_calls: [...calls.values()] } : {}),
    ...(details.size > 0 ? { reasoning, reasoning_details: [...details.values()] } : {}),
  };
}

/** Streamed arguments keep Anthropic's whitespace, JSON.stringify(input) does not: compare them parsed. */
const parsedArguments = (message: AssistantMessage) => ({
  ...message,
  tool_calls: message.tool_calls?.map((call) => ({ ...call, function: { ...call.function, arguments: JSON.parse(call.function.arguments) as unknown } })),
});

const data = (o: unknown): SseEvent => ({ event: (o as { type: string }).type, data: JSON.stringify(o) });

describe('createStreamConverter', () => {
  it('streams text, then finish reason, usage and done', () => {
    const converter = createStreamConverter();
    const [start, ...rest] = events('text');
    expect(converter.push(start)).toEqual([]);
    expect(converter.usage).toEqual({ promptTokens: 25, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: 0 });
    expect(converter.upstreamId).toBe('msg_01XFDUDYJgAACzvnptvVoYEL');
    expect(converter.finishReason).toBeNull();
    expect(rest.flatMap((event) => converter.push(event))).toEqual([{ content: 'Hello' }, { content: '! How can' }, { content: ' I help you today?' }]);
    expect(converter.finishReason).toBe('stop');
    expect(converter.usage).toEqual({ promptTokens: 25, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: 0 });
    expect(converter.done).toBe(true);
    expect(converter.error).toBeNull();
  });

  it('streams two tool calls with sequential indexes and split arguments', () => {
    const { converter, deltas } = run('tool_use');
    expect(deltas).toEqual([
      { content: "I'll check the weather" },
      { content: ' and the local time.' },
      { tool_calls: [{ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"location":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ' "San Fra' } }] },
      { tool_calls: [{ index: 0, function: { arguments: 'ncisco, CA"' } }] },
      { tool_calls: [{ index: 0, function: { arguments: ', "unit": "celsius"}' } }] },
      { tool_calls: [{ index: 1, id: 'toolu_01CaQfHTSL6ZJTJcG8yr1aUt', type: 'function', function: { name: 'get_time', arguments: '' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{"timezone": "Amer' } }] },
      { tool_calls: [{ index: 1, function: { arguments: 'ica/Los_Angeles"}' } }] },
    ]);
    expect(converter.finishReason).toBe('tool_calls');
    expect(converter.usage?.completionTokens).toBe(124);
  });

  it('streams thinking as reasoning plus reasoning_details, the signature as its own fragment', () => {
    const { deltas } = run('thinking');
    const signature = (JSON.parse(read('thinking.json')) as { content: { signature: string }[] }).content[0].signature;
    expect(deltas).toEqual([
      { reasoning: 'The user asks for 27 * 453.', reasoning_details: [{ type: 'reasoning.text', text: 'The user asks for 27 * 453.', format: 'anthropic-claude-v1', index: 0 }] },
      { reasoning: ' 27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.', reasoning_details: [{ type: 'reasoning.text', text: ' 27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.', format: 'anthropic-claude-v1', index: 0 }] },
      { reasoning_details: [{ type: 'reasoning.text', text: '', signature, format: 'anthropic-claude-v1', index: 0 }] },
      { content: '27 × 453 = ' },
      { content: '12,231.' },
    ]);
  });

  it.each(['text', 'tool_use', 'thinking', 'thinking_tool_use', 'redacted_thinking', 'cached_usage', 'cached_usage_1h', 'max_tokens', 'adaptive_omitted'])(
    '%s: the accumulated stream equals the non-streaming conversion',
    (scenario) => {
      const { converter, deltas } = run(scenario);
      const expected = convertResponse(JSON.parse(read(`${scenario}.json`)));
      expect(parsedArguments(accumulate(deltas))).toEqual(parsedArguments(expected.message));
      expect(converter.finishReason).toBe(expected.finishReason);
      expect(converter.usage).toEqual(expected.usage);
      expect(converter.done).toBe(true);
    },
  );

  // adaptive_omitted is built from the block shape Anthropic documents for display "omitted" (Opus 5.5), not recorded.
  it('adaptive_omitted: a Claude 5.x thinking block without text (display "omitted") still yields its signature', () => {
    const { deltas } = run('adaptive_omitted');
    const signature = (JSON.parse(read('adaptive_omitted.json')) as { content: { signature: string }[] }).content[0].signature;
    expect(deltas[0]).toEqual({ reasoning_details: [{ type: 'reasoning.text', text: '', signature, format: 'anthropic-claude-v1', index: 0 }] });
    expect(deltas.some((delta) => delta.reasoning !== undefined)).toBe(false);
  });

  it('merges usage from message_start and a cumulative message_delta', () => {
    expect(run('cached_usage').converter.usage).toEqual({ promptTokens: 2060, completionTokens: 9, cachedTokens: 1800, cacheWriteTokens: 248, cacheWrite1hTokens: 0, reasoningTokens: 0 });
  });

  // cached_usage_1h: built from the Messages API's Usage shape (cache_creation by lifetime, in message_start
  // only; message_delta repeats the totals), not recorded.
  it('keeps the 1-hour share of cache writes from message_start when message_delta repeats only the total', () => {
    expect(run('cached_usage_1h').converter.usage).toEqual({ promptTokens: 21 + 6000 + 3500, completionTokens: 9, cachedTokens: 6000, cacheWriteTokens: 3500, cacheWrite1hTokens: 3000, reasoningTokens: 0 });
  });

  it('reports max_tokens as length', () => {
    expect(run('max_tokens').converter.finishReason).toBe('length');
  });

  it('surfaces an error event after some text', () => {
    const { converter, deltas } = run('error_midstream');
    expect(deltas).toEqual([{ content: 'Once upon' }, { content: ' a time' }]);
    expect(converter.error).toEqual({ code: 'server_error', message: 'Overloaded' });
    expect(converter.done).toBe(false);
    expect(converter.finishReason).toBeNull();
  });

  it("keeps the message of Anthropic's error object when it ends the stream unframed; other tails are noise", () => {
    const tail = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    expect(run([{ event: UNFRAMED_TAIL_EVENT, data: tail }]).converter.error).toEqual({ code: 'server_error', message: 'Overloaded' });
    expect(run([{ event: UNFRAMED_TAIL_EVENT, data: '<html>502</html>' }]).converter.error).toBeNull();
  });

  it('gives a tool without parameters "{}" as arguments', () => {
    const { deltas } = run([
      data({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_9', name: 'now', input: {} } }),
      data({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
      data({ type: 'content_block_stop', index: 0 }),
    ]);
    expect(accumulate(deltas).tool_calls).toEqual([{ id: 'toolu_9', type: 'function', function: { name: 'now', arguments: '{}' } }]);
  });

  it('ignores pings, server tool blocks and unknown events; flags malformed data', () => {
    const { converter, deltas } = run([
      data({ type: 'ping' }),
      data({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      data({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' } }),
      data({ type: 'some_future_event' }),
    ]);
    expect(deltas).toEqual([]);
    expect(converter.error).toBeNull();
    converter.push({ event: 'content_block_delta', data: '{"type":' });
    expect(converter.error).toEqual({ code: 'server_error', message: 'Anthropic sent a malformed stream event' });
  });
});
