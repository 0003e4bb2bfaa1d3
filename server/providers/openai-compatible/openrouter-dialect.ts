// OpenRouter's answers: the compatible dialect (reasoning text in `reasoning`) plus `reasoning_details`,
// passed to the client as OpenRouter sent them (the same shape our API uses), in answers and deltas.
import { z } from 'zod';
import { convertOpenAIResponse, type OpenAIDialect } from '../openai/convert-response';
import { createOpenAIStreamConverter } from '../openai/convert-stream';
import type { ProviderAdapter, ReasoningDetail } from '../types';
import { createOpenAICompatibleAdapter } from '.';
import { compatibleDialect } from './convert-response';
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

export const openRouterDialect: OpenAIDialect = { ...compatibleDialect, readReasoningDetails };

export const openrouterAdapter: ProviderAdapter = {
  ...createOpenAICompatibleAdapter({ adjustBody: adjustOpenRouterBody }),
  id: 'openrouter',
  convertResponse: (body) => convertOpenAIResponse(body, openRouterDialect),
  createStreamConverter: () => createOpenAIStreamConverter(openRouterDialect),
};
