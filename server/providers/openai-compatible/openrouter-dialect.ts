// OpenRouter's answers: the compatible dialect (reasoning text in `reasoning`) plus `reasoning_details`,
// passed to the client as OpenRouter sent them (the same shape our API uses), in answers and deltas, and
// the request's cost as OpenRouter reports it (`usage.cost`), kept for the usage record.
import { z } from 'zod';
import { reportedUsdToMicros } from '@/server/ledger/money';
import { convertOpenAIResponse, type OpenAIDialect } from '../openai/convert-response';
import { createOpenAIStreamConverter } from '../openai/convert-stream';
import type { OpenAIUsage } from '../openai/convert-usage';
import type { NormalizedUsage, ProviderAdapter, ReasoningDetail } from '../types';
import { createOpenAICompatibleAdapter } from '.';
import { compatibleDialect } from './convert-response';
import { convertCompatibleUsage } from './convert-usage';
import { adjustOpenRouterBody } from './service-profiles';

const idFields = { format: z.string().nullish(), index: z.number().nullish(), id: z.string().nullish() };
const reasoningDetailSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('reasoning.text'), text: z.string().nullish(), signature: z.string().nullish(), ...idFields }),
  z.looseObject({ type: z.literal('reasoning.encrypted'), data: z.string(), ...idFields }),
  z.looseObject({ type: z.literal('reasoning.summary'), summary: z.string(), ...idFields }),
]);

/** The details we know, each checked on its own: one of a kind OpenRouter adds later is left out, not the answer. */
export function readReasoningDetails(fields: Record<string, unknown>): ReasoningDetail[] | undefined {
  if (!Array.isArray(fields.reasoning_details)) return undefined;
  const details: ReasoningDetail[] = [];
  for (const item of fields.reasoning_details) {
    const parsed = reasoningDetailSchema.safeParse(item);
    if (!parsed.success) continue;
    const { format, index, id, ...rest } = parsed.data;
    const detail = { ...rest, ...(format != null ? { format } : {}), ...(index != null ? { index } : {}), ...(id != null ? { id } : {}) };
    if (detail.type === 'reasoning.text') detail.text ??= '';
    details.push(detail as ReasoningDetail);
  }
  return details.length > 0 ? details : undefined;
}

/**
 * OpenRouter puts the request's cost in USD credits in `usage.cost` (a JSON number, in the answer and in the
 * stream's last chunk; openrouter.ai/docs/use-cases/usage-accounting): carried as providerCostMicros.
 * A cost that is not a number ≥ 0 is left out, not the usage.
 */
export function convertOpenRouterUsage(usage: OpenAIUsage): NormalizedUsage {
  const normalized = convertCompatibleUsage(usage);
  const cost = typeof usage.cost === 'number' ? reportedUsdToMicros(usage.cost) : null;
  if (cost !== null) normalized.providerCostMicros = cost;
  return normalized;
}

export const openRouterDialect: OpenAIDialect = { ...compatibleDialect, readReasoningDetails, convertUsage: convertOpenRouterUsage };

export const openrouterAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({ adjustBody: adjustOpenRouterBody }),
  id: 'openrouter',
  convertResponse: (body) => convertOpenAIResponse(body, openRouterDialect),
  createStreamConverter: () => createOpenAIStreamConverter(openRouterDialect),
};
