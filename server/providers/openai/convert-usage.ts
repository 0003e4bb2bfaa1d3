// OpenAI's usage objects → our NormalizedUsage. OpenAI already counts the way we do (prompt tokens include
// cached and cache-written ones, completion tokens include reasoning ones), so this only picks the detail
// counters, from Chat Completions (prompt_/completion_tokens) or the Responses API (input_/output_tokens).
import { z } from 'zod';
import type { NormalizedUsage } from '../types';

const count = z.number().nullish();

/**
 * Minimal and loose: OpenAI keeps adding counters (audio, predictions) we do not bill separately.
 * `cache_write_tokens`: GPT-5.6 and later charge for writing the prompt cache (1.25× input) and report
 * those tokens here, a part of prompt_tokens apart from cached_tokens (developers.openai.com, "Prompt
 * caching"). Compatible servers that relay other providers (OpenRouter) report it the same way.
 */
export const openAIUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count,
  prompt_tokens_details: z.looseObject({ cached_tokens: count, cache_write_tokens: count }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
});

export type OpenAIUsage = z.infer<typeof openAIUsageSchema>;

export function convertOpenAIUsage(usage: OpenAIUsage): NormalizedUsage {
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    // Older models write the cache for free and leave the counter out: 0.
    cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** The Responses API's usage: the same counters under input_/output_ names. */
export const responsesUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count, cache_write_tokens: count }).nullish(),
  output_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
});

export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;

export function convertResponsesUsage(usage: ResponsesUsage): NormalizedUsage {
  return {
    promptTokens: usage.input_tokens ?? 0,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage.input_tokens_details?.cache_write_tokens ?? 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}
