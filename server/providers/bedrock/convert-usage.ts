import { z } from 'zod';
import type { NormalizedUsage } from '@/server/providers/types';

/** Converse's TokenUsage (API_runtime_TokenUsage): the fields we read. */
export const bedrockUsageSchema = z.object({
  inputTokens: z.number().nullish(),
  outputTokens: z.number().nullish(),
  cacheReadInputTokens: z.number().nullish(),
  cacheWriteInputTokens: z.number().nullish(),
  /** Cache writes by TTL (API_runtime_CacheDetail), present when a cache point asked for one. */
  cacheDetails: z.array(z.object({ ttl: z.string(), inputTokens: z.number() })).nullish(),
});

export type BedrockUsage = z.infer<typeof bedrockUsageSchema>;

/**
 * Bedrock's inputTokens counts only the uncached part of the prompt (cache reads and writes are reported
 * beside it, as on Anthropic's API: docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html), while
 * our promptTokens counts all of it: both are added back. Thinking tokens are inside outputTokens and not
 * reported apart, so reasoningTokens stays 0 rather than an estimate billing could mistake for a measurement.
 * `cacheDetails` splits the writes by TTL: its 1-hour part is priced at the model's cache_write_1h price.
 */
export function convertUsage(usage: BedrockUsage): NormalizedUsage {
  const cacheRead = usage.cacheReadInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  const hour = (usage.cacheDetails ?? []).filter((d) => d.ttl === '1h').reduce((sum, d) => sum + d.inputTokens, 0);
  return {
    promptTokens: (usage.inputTokens ?? 0) + cacheRead + cacheWrite,
    completionTokens: usage.outputTokens ?? 0,
    cachedTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    ...(hour > 0 ? { cacheWrite1hTokens: Math.min(hour, cacheWrite) } : {}),
    reasoningTokens: 0,
  };
}
