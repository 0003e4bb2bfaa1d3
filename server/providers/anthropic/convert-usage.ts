import { z } from 'zod';
import type { NormalizedUsage } from '@/server/providers/types';

/** The usage fields we read. message_delta may send them as null, hence nullish. */
export const anthropicUsageSchema = z.object({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  /** The cache writes by lifetime; cache_creation_input_tokens is their sum. Sent in message_start and non-streaming answers. */
  cache_creation: z.object({ ephemeral_5m_input_tokens: z.number().nullish(), ephemeral_1h_input_tokens: z.number().nullish() }).nullish(),
});

export type AnthropicUsage = z.infer<typeof anthropicUsageSchema>;

/**
 * Anthropic's input_tokens counts only the uncached part of the prompt; OpenAI's prompt_tokens counts
 * all of it, so cache reads and cache writes are added back (and reported separately for pricing). Writes
 * to the 1-hour cache cost more than 5-minute ones, so their share (cache_creation) is kept apart.
 * Anthropic does not report thinking tokens separately — they are inside output_tokens — so
 * reasoningTokens stays 0 rather than an estimate that billing might mistake for a measurement.
 */
export function convertUsage(usage: AnthropicUsage): NormalizedUsage {
  const input = usage.input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const byLifetime = usage.cache_creation;
  const cacheWrite = usage.cache_creation_input_tokens ?? (byLifetime?.ephemeral_5m_input_tokens ?? 0) + (byLifetime?.ephemeral_1h_input_tokens ?? 0);
  return {
    promptTokens: input + cacheRead + cacheWrite,
    completionTokens: usage.output_tokens ?? 0,
    cachedTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    cacheWrite1hTokens: Math.min(cacheWrite, byLifetime?.ephemeral_1h_input_tokens ?? 0),
    reasoningTokens: 0,
  };
}

/**
 * Streams report usage twice: message_start (input side + a first output count) and message_delta
 * (cumulative counts; newer API versions repeat the input side, older ones send only output_tokens).
 * A later number replaces an earlier one; a missing or null one keeps it. message_delta carries no
 * cache_creation breakdown, so message_start's stays.
 */
export function mergeUsage(previous: AnthropicUsage | null, next: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...(previous ?? {}) };
  for (const key of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    const value = next[key];
    if (typeof value === 'number') merged[key] = value;
  }
  if (next.cache_creation) merged.cache_creation = next.cache_creation;
  return merged;
}
