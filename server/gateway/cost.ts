// What a generation costs, from the catalog's integer prices (micro-dollars per million tokens).
import { tokenCostMicros } from '@/server/ledger/money';
import type { CatalogModel } from '@/server/catalog/resolve-model';
import type { ChatRequest, NormalizedUsage } from '@/server/providers/types';

export interface Cost {
  costMicros: bigint;
  /** What cached tokens would have cost at the full input price, minus what they cost. */
  cacheSavingsMicros: bigint;
}

export function computeCost(u: NormalizedUsage, m: Pick<CatalogModel, 'inputPrice' | 'outputPrice' | 'cacheReadPrice' | 'cacheWritePrice'>): Cost {
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

/** Tokens an image is assumed to cost before the provider says (Anthropic's large-image figure). */
const IMAGE_TOKENS = 1_600;

/**
 * A deliberately high estimate of the prompt's tokens, for the reservation only: one token per 3 bytes
 * of text (real tokenizers average ~4 for English; CJK and code run closer to 2–3) plus a fixed amount per
 * image. The charge always uses the provider's reported usage.
 */
export function estimatePromptTokens(req: ChatRequest): number {
  let bytes = 0;
  let images = 0;
  for (const m of req.messages) {
    const c = m.content;
    if (typeof c === 'string') bytes += Buffer.byteLength(c);
    else if (Array.isArray(c)) for (const p of c) {
      if (p.type === 'text') bytes += Buffer.byteLength(p.text);
      else images++;
    }
    if (m.role === 'assistant') for (const t of m.tool_calls ?? []) bytes += t.function.arguments.length + t.function.name.length;
    bytes += 16; // role and message framing
  }
  for (const t of req.tools ?? []) bytes += JSON.stringify(t).length;
  return Math.ceil(bytes / 3) + images * IMAGE_TOKENS;
}

/** The most output tokens this request may produce (what the provider will be told, or the model maximum). */
export function maxOutputTokens(req: ChatRequest, m: Pick<CatalogModel, 'maxOutputTokens'>): number {
  const asked = req.max_completion_tokens ?? req.max_tokens;
  return asked ? Math.min(asked, m.maxOutputTokens) : m.maxOutputTokens;
}

/** Worst-case cost held before the provider is called. */
export function reservationMicros(req: ChatRequest, m: CatalogModel): bigint {
  return tokenCostMicros(estimatePromptTokens(req), m.inputPrice) + tokenCostMicros(maxOutputTokens(req, m), m.outputPrice);
}
