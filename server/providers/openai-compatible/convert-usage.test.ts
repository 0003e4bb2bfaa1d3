import { describe, expect, it } from 'vitest';
import { convertCompatibleUsage } from './convert-usage';

// DeepSeek's usage object as its API reference shows it (api-docs.deepseek.com, "Create Chat Completion"
// and "Context Caching"): prompt_cache_hit_tokens + prompt_cache_miss_tokens = prompt_tokens.
describe('convertCompatibleUsage', () => {
  it("maps DeepSeek's implicit cache hits to cachedTokens, inside promptTokens", () => {
    const usage = { prompt_tokens: 1543, completion_tokens: 7, total_tokens: 1550, prompt_cache_hit_tokens: 1472, prompt_cache_miss_tokens: 71, prompt_tokens_details: { cached_tokens: 1472 } };
    expect(convertCompatibleUsage(usage)).toEqual({ promptTokens: 1543, completionTokens: 7, cachedTokens: 1472, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it("falls back to OpenAI's prompt_tokens_details.cached_tokens (vLLM, OpenRouter) and to 0", () => {
    expect(convertCompatibleUsage({ prompt_tokens: 900, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 512 } }).cachedTokens).toBe(512);
    expect(convertCompatibleUsage({ prompt_tokens: 900, completion_tokens: 3, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 900 }).cachedTokens).toBe(0);
    expect(convertCompatibleUsage({ prompt_tokens: 900, completion_tokens: 3 }).cachedTokens).toBe(0);
  });
});
