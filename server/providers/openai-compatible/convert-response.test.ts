import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertCompatibleResponse } from './convert-response';

const fixture = (scenario: string): unknown => JSON.parse(readFileSync(path.join(__dirname, '__fixtures__', `${scenario}.json`), 'utf8'));

describe('convertCompatibleResponse on recorded DeepSeek bodies', () => {
  it('text', () => {
    expect(convertCompatibleResponse(fixture('text'))).toEqual({
      message: { role: 'assistant', content: 'Hello! How can I help you today?' },
      finishReason: 'stop',
      usage: { promptTokens: 11, completionTokens: 9, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: '8b2e4f6a-1c3d-4e5f-9a7b-0c2d4e6f8a1b',
    });
  });

  it('tool_calls: two calls, cache hits counted', () => {
    expect(convertCompatibleResponse(fixture('tool_calls'))).toEqual({
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_00_XkQ3pT8vR1mZ6yWc2bN9sLdF', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris, France"}' } },
          { id: 'call_01_Hf4jK7aP2qE5tY8uI0oW3rTz', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Tokyo, Japan"}' } },
        ],
      },
      finishReason: 'tool_calls',
      usage: { promptTokens: 263, completionTokens: 40, cachedTokens: 192, cacheWriteTokens: 0, reasoningTokens: 0 },
      upstreamId: 'e9d1b3f5-7a2c-4e6b-8d0f-1a3c5e7b9d2f',
    });
  });

  it('reasoning: reasoning_content becomes reasoning, reasoning tokens counted', () => {
    expect(convertCompatibleResponse(fixture('reasoning'))).toEqual({
      message: {
        role: 'assistant',
        content: '9.8 is larger.',
        reasoning: 'Okay, the user asks which is larger: 9.11 or 9.8. Compare tenths: 8 > 1.',
      },
      finishReason: 'stop',
      usage: { promptTokens: 18, completionTokens: 31, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 24 },
      upstreamId: '931809f8-3d1c-44d9-b124-367d05e0f123',
    });
  });

  it('falls back to prompt_tokens_details.cached_tokens when the DeepSeek counter is absent', () => {
    const converted = convertCompatibleResponse({
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok', reasoning: 'short' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 64 } },
    });
    expect(converted.usage.cachedTokens).toBe(64);
    expect(converted.message.reasoning).toBe('short');
  });
});
