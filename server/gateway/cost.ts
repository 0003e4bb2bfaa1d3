// What a generation costs, from the serving endpoint's integer prices (micro-dollars per million tokens).
import { tokenCostMicros } from '@/server/ledger/money';
import { chargedPrices, type Pricing } from '@/server/routing/routing-table';
import { measurePrompt, worstCasePromptTokens } from '@/server/providers/estimate-tokens';
import type { ChatRequest, NormalizedUsage } from '@/server/providers/types';
import { choicesOf } from './choices';

export interface Cost {
  costMicros: bigint;
  /** What cached tokens would have cost at the full input price, minus what they cost. */
  cacheSavingsMicros: bigint;
}

/**
 * Each class of prompt token at its own price: plain input, cache reads, cache writes, and the share of the
 * writes that went to the 1-hour cache (a subset of cacheWriteTokens, dearer on Anthropic).
 */
export function computeCost(u: NormalizedUsage, m: Pricing): Cost {
  const price = chargedPrices(m);
  const cached = Math.max(0, u.cachedTokens);
  const written = Math.max(0, u.cacheWriteTokens);
  const writtenFor1h = Math.min(written, Math.max(0, u.cacheWrite1hTokens ?? 0));
  const plain = Math.max(0, u.promptTokens - cached - written);
  const costMicros =
    tokenCostMicros(plain, price.input) +
    tokenCostMicros(cached, price.cacheRead) +
    tokenCostMicros(written - writtenFor1h, price.cacheWrite) +
    tokenCostMicros(writtenFor1h, price.cacheWrite1h) +
    tokenCostMicros(u.completionTokens, price.output);
  const savings = tokenCostMicros(cached, price.input) - tokenCostMicros(cached, price.cacheRead);
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

/**
 * Worst-case cost at one endpoint's prices and output limit (admission reserves the most expensive
 * candidate's), the output limit once per choice (`n`: the prompt is billed once, each choice's output). A request with cache breakpoints may have its whole prompt written to the cache, at a price
 * above the input price (1.25 × for 5 minutes, 2 × for an hour on Anthropic), so its prompt is reserved at
 * the dearest price it can be billed: the charge then never exceeds the reservation (outcome.ts chargeFor).
 */
export function reservationMicros(req: ChatRequest, m: Pricing & { maxOutputTokens: number }): bigint {
  return tokenCostMicros(estimatePromptTokens(req), worstPromptPrice(req, m)) + tokenCostMicros(maxOutputTokens(req, m) * choicesOf(req), m.outputPrice);
}

function worstPromptPrice(req: ChatRequest, m: Pricing): number {
  const ttls = requestedCacheTtls(req);
  const price = chargedPrices(m);
  let worst = price.input;
  if (ttls.has('5m')) worst = Math.max(worst, price.cacheWrite);
  if (ttls.has('1h')) worst = Math.max(worst, price.cacheWrite1h);
  return worst;
}

type Ttl = '5m' | '1h';
const ttlOf = (control: unknown): Ttl | null => {
  if (typeof control !== 'object' || control === null) return null;
  return (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
};

/** The cache lifetimes a request asks for: its breakpoints, the automatic-caching option, a native body's. */
export function requestedCacheTtls(req: ChatRequest): Set<Ttl> {
  const ttls = new Set<Ttl>();
  const add = (control: unknown) => {
    const ttl = ttlOf(control);
    if (ttl) ttls.add(ttl);
  };
  add(req.cache_control);
  for (const tool of req.tools ?? []) add(tool.cache_control);
  for (const message of req.messages) {
    if (Array.isArray(message.content)) for (const part of message.content) add(part.cache_control);
  }
  if (req.native) collectNativeTtls(req.native.body, add, 0);
  return ttls;
}

/** A passthrough body (Anthropic Messages) puts cache_control on blocks at any depth: walk it. */
function collectNativeTtls(value: unknown, add: (control: unknown) => void, depth: number): void {
  if (depth > 8 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectNativeTtls(item, add, depth + 1);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key === 'cache_control') add(child);
    else collectNativeTtls(child, add, depth + 1);
  }
}
