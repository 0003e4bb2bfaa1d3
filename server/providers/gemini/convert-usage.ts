import type { NormalizedUsage } from '../types';
import type { GeminiUsageMetadata } from './generate-content-response';

/**
 * Gemini `usageMetadata` → OpenAI-sense token counts.
 *  - promptTokenCount already includes cachedContentTokenCount (cached is a subset, as in OpenAI).
 *  - toolUsePromptTokenCount (results of built-in tools such as Google Search or code execution, fed back to
 *    the model) is billed as input but reported outside promptTokenCount, so it is added to the prompt.
 *  - thoughtsTokenCount is billed as output but reported outside candidatesTokenCount, so completion is the
 *    sum and reasoning is the thoughts alone (OpenAI's completion_tokens includes reasoning_tokens).
 *  - Gemini charges no cache-write premium (implicit caching is free to populate; explicit caches are billed
 *    for storage, outside a request), so cacheWriteTokens is always 0.
 */
export function convertGeminiUsage(usage: GeminiUsageMetadata): NormalizedUsage {
  const thoughts = usage.thoughtsTokenCount ?? 0;
  return {
    promptTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    completionTokens: (usage.candidatesTokenCount ?? 0) + thoughts,
    cachedTokens: usage.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: thoughts,
  };
}
