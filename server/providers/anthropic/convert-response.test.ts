import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { convertResponse } from './convert-response';
import { mapFinishReason } from './map-finish-reason';

const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '__fixtures__', name), 'utf8'));

const SIG1 = (fixture('thinking.json') as { content: { signature?: string }[] }).content[0].signature;

describe('convertResponse', () => {
  it('converts a text message', () => {
    expect(convertResponse(fixture('text.json'))).toEqual({
      message: { role: 'assistant', content: 'Hello! How can I help you today?' },
      finishReason: 'stop',
      usage: { promptTokens: 25, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: 0 },
      upstreamId: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    });
  });

  it('converts tool_use blocks to tool_calls with JSON arguments', () => {
    const r = convertResponse(fixture('tool_use.json'));
    expect(r.message).toEqual({
      role: 'assistant',
      content: "I'll check the weather and the local time.",
      tool_calls: [
        { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' } },
        { id: 'toolu_01CaQfHTSL6ZJTJcG8yr1aUt', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"America/Los_Angeles"}' } },
      ],
    });
    expect(r.finishReason).toBe('tool_calls');
  });

  it('converts thinking to reasoning and signed reasoning_details', () => {
    expect(convertResponse(fixture('thinking.json')).message).toEqual({
      role: 'assistant',
      content: '27 × 453 = 12,231.',
      reasoning: 'The user asks for 27 * 453. 27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'The user asks for 27 * 453. 27 * 453 = 27 * 400 + 27 * 53 = 10800 + 1431 = 12231.', signature: SIG1, format: 'anthropic-claude-v1', index: 0 },
      ],
    });
  });

  it('returns null content when the model only thought and called a tool', () => {
    const r = convertResponse(fixture('thinking_tool_use.json'));
    expect(r.message.content).toBeNull();
    expect(r.message.tool_calls).toEqual([{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } }]);
    expect(r.message.reasoning_details?.[0]).toMatchObject({ type: 'reasoning.text', index: 0, format: 'anthropic-claude-v1' });
    expect(r.usage).toEqual({ promptTokens: 544, completionTokens: 87, cachedTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: 0 });
  });

  it('converts redacted_thinking to an encrypted detail', () => {
    const r = convertResponse(fixture('redacted_thinking.json'));
    const data = (fixture('redacted_thinking.json') as { content: { data?: string }[] }).content[0].data;
    expect(r.message).toEqual({
      role: 'assistant',
      content: 'I have considered this carefully.',
      reasoning: null,
      reasoning_details: [{ type: 'reasoning.encrypted', data, format: 'anthropic-claude-v1', index: 0 }],
    });
  });

  it('counts cache reads and writes into prompt tokens', () => {
    expect(convertResponse(fixture('cached_usage.json')).usage).toEqual({ promptTokens: 12 + 1800 + 248, completionTokens: 9, cachedTokens: 1800, cacheWriteTokens: 248, cacheWrite1hTokens: 0, reasoningTokens: 0 });
  });

  it('reports the 1-hour share of cache writes apart (usage.cache_creation)', () => {
    expect(convertResponse(fixture('cached_usage_1h.json')).usage).toEqual({ promptTokens: 21 + 6000 + 3500, completionTokens: 9, cachedTokens: 6000, cacheWriteTokens: 3500, cacheWrite1hTokens: 3000, reasoningTokens: 0 });
  });

  it('maps max_tokens and refusal', () => {
    expect(convertResponse(fixture('max_tokens.json')).finishReason).toBe('length');
    const refusal = convertResponse(fixture('refusal.json'));
    expect(refusal.finishReason).toBe('content_filter');
    expect(refusal.message.content).toBeNull();
  });

  it('skips block types it does not translate', () => {
    const body = { id: 'msg_1', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, { type: 'text', text: 'Found it.' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2 } };
    expect(convertResponse(body).message).toEqual({ role: 'assistant', content: 'Found it.' });
  });

  it('rejects a body that is not a message', () => {
    expect(() => convertResponse({ type: 'error', error: { type: 'api_error' } })).toThrow(AppError);
  });
});

describe('mapFinishReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    [null, 'stop'],
  ])('%s → %s', (reason, expected) => {
    expect(mapFinishReason(reason)).toBe(expected);
  });
});
