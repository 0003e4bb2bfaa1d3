import { describe, expect, it } from 'vitest';
import { convertUsage, mergeUsage } from './convert-usage';

// Usage objects in the shape of the Messages API reference (Usage: input_tokens excludes cache reads and
// writes; cache_creation splits cache_creation_input_tokens by lifetime).
describe('convertUsage', () => {
  it('adds cache reads and writes to the prompt and keeps the 1-hour writes apart', () => {
    expect(
      convertUsage({ input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 1000, cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } }),
    ).toEqual({ promptTokens: 1350, completionTokens: 7, cachedTokens: 1000, cacheWriteTokens: 300, cacheWrite1hTokens: 200, reasoningTokens: 0 });
  });

  it('takes the total from the breakdown when only the breakdown is sent, and 0 one-hour writes without one', () => {
    expect(convertUsage({ input_tokens: 1, cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 } })).toMatchObject({ promptTokens: 31, cacheWriteTokens: 30, cacheWrite1hTokens: 20 });
    expect(convertUsage({ input_tokens: 1, cache_creation_input_tokens: 30 })).toMatchObject({ cacheWriteTokens: 30, cacheWrite1hTokens: 0 });
  });

  it('never reports more 1-hour writes than writes', () => {
    expect(convertUsage({ cache_creation_input_tokens: 5, cache_creation: { ephemeral_1h_input_tokens: 9 } }).cacheWrite1hTokens).toBe(5);
  });
});

describe('mergeUsage', () => {
  it('keeps the breakdown of message_start when message_delta sends totals only', () => {
    const start = { input_tokens: 3, cache_creation_input_tokens: 40, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 40 }, output_tokens: 1 };
    const merged = mergeUsage(mergeUsage(null, start), { input_tokens: 3, cache_creation_input_tokens: 40, output_tokens: 12 });
    expect(convertUsage(merged)).toEqual({ promptTokens: 43, completionTokens: 12, cachedTokens: 0, cacheWriteTokens: 40, cacheWrite1hTokens: 40, reasoningTokens: 0 });
  });
});
