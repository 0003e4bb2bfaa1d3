// What a generation costs, from the serving endpoint's integer prices (micro-dollars per million tokens).
import { tokenCostMicros } from '@/server/ledger/money';
import type { Pricing } from '@/server/routing/routing-table';
import { measurePrompt, worstCasePromptTokens } from '@/server/providers/estimate-tokens';
import type { ChatRequest, NormalizedUsage } from '@/server/providers/types';

export interface Cost {
  costMicros: bigint;
  /** What cached tokens would have cost at the full input price, minus what they cost. */
  cacheSavingsMicros: bigint;
}

export function computeCost(u: NormalizedUsage, m: Pricing): Cost {
  const cached = Math.max(0, u.cachedTokens);
  const written = Math.max(0, u.cacheWriteTokens);
  const plain = Math.max(0, u.promptTokens - cached - written);
  const readPrice = m.cacheReadPrice || m.inputPrice;
  const writePrice = m.cacheWritePrice || m.inputPrice;
  const costMicros =
    tokenCostMicros(plain, m.inputPrice) + tokenCostMicros(cached, readPrice) + tokenCostMicros(written, writePrice) + tokenCostMicros(u.completionTokens, m.outputPrice);
  const savings = tokenCostMicros(cached, m.inputPrice) - tokenCostMicros(cached, readPrice);
  return { costMicros, cacheSavingsMicros: savings > 0n ? savings : 0n };
}

/** The reservation's prompt estimate: the worst case of the one estimator (providers/estimate-tokens.ts). */
export function estimatePromptTokens(req: ChatRequest): number {
  return worstCasePromptTokens(measurePrompt(req.messages, req.tools));
}

/** The most output tokens this request may produce (what the provider will be told, or the model maximum). */
export function maxOutputTokens(req: ChatRequest, m: { maxOutputTokens: number }): number {
  const asked = req.max_completion_tokens ?? req.max_tokens;
  return asked ? Math.min(asked, m.maxOutputTokens) : m.maxOutputTokens;
}

/** Worst-case cost at one endpoint's prices and output limit (admission reserves the most expensive candidate's). */
export function reservationMicros(req: ChatRequest, m: Pricing & { maxOutputTokens: number }): bigint {
  return tokenCostMicros(estimatePromptTokens(req), m.inputPrice) + tokenCostMicros(maxOutputTokens(req, m), m.outputPrice);
}
