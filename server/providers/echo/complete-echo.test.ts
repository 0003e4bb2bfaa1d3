import { describe, expect, it } from 'vitest';
import { echoAdapter } from './index';

describe('echoAdapter.local.complete', () => {
  it('returns an OpenAI chat.completion that the openai converter reads', () => {
    const body = echoAdapter.local!.complete({
      model: 'switchboard/echo',
      stream: false,
      messages: [
        { role: 'user', content: 'Say it back' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] }, // 3 chars
        { role: 'tool', tool_call_id: 'c1', content: 'done' },
        { role: 'user', content: 'Echo  this,\nplease' },
      ],
    }) as { object: string; id: string; choices: unknown[] };
    expect(body.object).toBe('chat.completion');
    expect(body.id).toMatch(/^chatcmpl-echo-/);
    const converted = echoAdapter.convertResponse(body, {
      model: { id: 'switchboard/echo', provider: 'echo', upstreamModel: 'echo', contextLength: 8192, maxOutputTokens: 8192, supportsReasoning: false, supportsImages: false },
      config: { baseUrl: '' },
    });
    expect(converted.message).toEqual({ role: 'assistant', content: 'Echo  this,\nplease' });
    expect(converted.finishReason).toBe('stop');
    // (11 + 3 + 4 + 18) / 4 = 9 prompt tokens; 18 characters of answer → 5 tokens (as a stream of it counts).
    expect(converted.usage).toEqual({ promptTokens: 9, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(converted.upstreamId).toBe(body.id);
  });
});
