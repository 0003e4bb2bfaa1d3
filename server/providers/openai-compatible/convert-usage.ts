// Usage of an OpenAI-compatible server → NormalizedUsage: OpenAI's fields plus DeepSeek's own cache counter.
import { convertOpenAIUsage, type OpenAIUsage } from '../openai/convert-usage';
import type { NormalizedUsage } from '../types';

export function convertCompatibleUsage(usage: OpenAIUsage): NormalizedUsage {
  const normalized = convertOpenAIUsage(usage);
  // DeepSeek reports cache hits as prompt_cache_hit_tokens (+ prompt_cache_miss_tokens, which add up to
  // prompt_tokens, so promptTokens already includes the hits as we want). Recent DeepSeek responses also
  // carry prompt_tokens_details.cached_tokens with the same number; the provider's own field wins.
  const hits = usage.prompt_cache_hit_tokens;
  if (typeof hits === 'number') normalized.cachedTokens = hits;
  return normalized;
}
