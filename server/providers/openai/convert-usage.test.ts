import { describe, expect, it } from 'vitest';
import { convertOpenAIUsage, convertResponsesUsage } from './convert-usage';

describe('convertOpenAIUsage', () => {
  it('reports the cache writes GPT-5.6 and later bill, apart from cache reads, both inside prompt_tokens', () => {
    const usage = { prompt_tokens: 5000, completion_tokens: 120, prompt_tokens_details: { cached_tokens: 3000, cache_write_tokens: 1800 }, completion_tokens_details: { reasoning_tokens: 40 } };
    expect(convertOpenAIUsage(usage)).toEqual({ promptTokens: 5000, completionTokens: 120, cachedTokens: 3000, cacheWriteTokens: 1800, reasoningTokens: 40 });
  });

  it('counts no cache writes when the counter is absent or null (older models write the cache for free)', () => {
    expect(convertOpenAIUsage({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } }).cacheWriteTokens).toBe(0);
    expect(convertOpenAIUsage({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cache_write_tokens: null } }).cacheWriteTokens).toBe(0);
  });
});

describe('convertResponsesUsage', () => {
  it('reads the Responses API names of the same counters', () => {
    const usage = { input_tokens: 2310, output_tokens: 96, input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 1152 }, output_tokens_details: { reasoning_tokens: 64 } };
    expect(convertResponsesUsage(usage)).toEqual({ promptTokens: 2310, completionTokens: 96, cachedTokens: 1024, cacheWriteTokens: 1152, reasoningTokens: 64 });
  });
});
