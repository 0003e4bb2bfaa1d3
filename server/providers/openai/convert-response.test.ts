import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { convertOpenAIResponse } from './convert-response';

const fixture = (scenario: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '__fixtures__', `${scenario}.json`), 'utf8'));

describe('convertOpenAIResponse', () => {
  it('text', () => {
    expect(convertOpenAIResponse(fixture('text'))).toEqual({
      message: { role: 'assistant', content: 'Hello there, friend!' },
      finishReason: 'stop',
      usage: { promptTokens: 14, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: 'chatcmpl-CJ3mRa1cYt6uPq0WnB2xK9vLsE3Hd',
    });
  });

  it('tool_calls: two parallel calls, content null', () => {
    expect(convertOpenAIResponse(fixture('tool_calls'))).toEqual({
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_Rk3uVb9XnQ2mT7yLp0WsZc4E', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Paris, France"}' } },
          { id: 'call_a8GhJ1sD5fKq2WxE9rTy6UoP', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Tokyo, Japan"}' } },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 82, completionTokens: 47, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: 'chatcmpl-CJ3nB7yTq1ZxWv4RpL6mK0sNcE9Da',
    });
  });

  it('reasoning: reasoning tokens without reasoning text', () => {
    const converted = convertOpenAIResponse(fixture('reasoning'));
    expect(converted.message).toEqual({ role: 'assistant', content: 'There are three r\'s in "strawberry".' });
    expect(converted.usage).toEqual({ promptTokens: 19, completionTokens: 209, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 192 });
  });

  it('cached_usage', () => {
    expect(convertOpenAIResponse(fixture('cached_usage')).usage).toEqual({ promptTokens: 2006, completionTokens: 9, cachedTokens: 1920, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('shows a refusal as content and maps length', () => {
    const converted = convertOpenAIResponse({
      id: 'chatcmpl-1',
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, finish_reason: 'length' }],
    });
    expect(converted.message.content).toBe("I can't help with that.");
    expect(converted.finishReason).toBe('length');
    expect(converted.usage).toEqual({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('throws upstream_error on a body that is not a chat completion', () => {
    expect(() => convertOpenAIResponse({ object: 'list', data: [] })).toThrow(AppError);
    expect(() => convertOpenAIResponse({ choices: [] })).toThrow(/without a choice/);
    expect(() => convertOpenAIResponse('<html>')).toThrow(expect.objectContaining({ code: 'upstream_error' }));
  });
});
