// OpenAI's usage object → our NormalizedUsage. OpenAI already counts the way we do (prompt tokens include
// cached ones, completion tokens include reasoning ones), so this only picks the detail counters.
import { z } from 'zod';
import type { NormalizedUsage } from '../types';

const count = z.number().nullish();

/** Minimal and loose: OpenAI keeps adding counters (audio, predictions) we do not bill separately. */
export const openAIUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
});

export type OpenAIUsage = z.infer<typeof openAIUsageSchema>;

export function convertOpenAIUsage(usage: OpenAIUsage): NormalizedUsage {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    // OpenAI caches prompts automatically and charges nothing extra to write the cache.
    cacheWriteTokens: 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
