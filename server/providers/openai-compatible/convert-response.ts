// A 2xx body of an OpenAI-compatible server: OpenAI's converter with this dialect (reasoning text,
// DeepSeek usage, extra finish reasons).
import { convertOpenAIResponse, type OpenAIDialect } from '../openai/convert-response';
import type { ConvertedResponse } from '../types';
import { convertCompatibleUsage } from './convert-usage';
import { mapCompatibleFinishReason } from './map-finish-reason';

/**
 * DeepSeek (and SGLang, older vLLM, LM Studio) put the chain of thought in `reasoning_content`; newer vLLM,
 * Ollama and OpenRouter call it `reasoning`. Both sit next to `content`, in messages and in deltas.
 */
export function readCompatibleReasoning(fields: Record<string, unknown>): string | undefined {
  const value = fields.reasoning_content ?? fields.reasoning;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export const compatibleDialect: OpenAIDialect = {
  readReasoning: readCompatibleReasoning,
  convertUsage: convertCompatibleUsage,
  mapFinishReason: mapCompatibleFinishReason,
};

export function convertCompatibleResponse(body: unknown): ConvertedResponse {
  return convertOpenAIResponse(body, compatibleDialect);
}
