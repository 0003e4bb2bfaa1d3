import { z } from 'zod';
import { AppError } from '@/server/errors';
import type { ConvertedResponse, ReasoningDetail, ToolCall } from '@/server/providers/types';
import { BEDROCK_REASONING_FORMAT } from './convert-messages';
import { bedrockUsageSchema, convertUsage } from './convert-usage';
import { mapFinishReason, stopReasonError } from './map-finish-reason';

/** A Converse content block, minimally; blocks we do not translate (citations, guard content…) still parse and are skipped. */
const contentBlockSchema = z.object({
  text: z.string().optional(),
  toolUse: z.object({ toolUseId: z.string(), name: z.string(), input: z.unknown().optional() }).optional(),
  reasoningContent: z
    .object({
      reasoningText: z.object({ text: z.string().optional(), signature: z.string().optional() }).optional(),
      redactedContent: z.string().optional(),
    })
    .optional(),
});

/** ConverseResponse (API_runtime_Converse "Response Syntax"): output.message, stopReason, usage. */
const converseResponseSchema = z.object({
  output: z.object({ message: z.object({ content: z.array(contentBlockSchema) }) }),
  stopReason: z.string().nullish(),
  usage: bedrockUsageSchema.nullish(),
});

/** A 2xx Converse body → the OpenAI-shaped assistant message. */
export function convertResponse(body: unknown): ConvertedResponse {
  const parsed = converseResponseSchema.safeParse(body);
  if (!parsed.success) throw new AppError('upstream_error', 'Bedrock returned a response that is not a Converse response');
  const { output, stopReason, usage } = parsed.data;
  let text = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of output.message.content) {
    if (block.text !== undefined) text += block.text;
    else if (block.toolUse) {
      toolCalls.push({ id: block.toolUse.toolUseId, type: 'function', function: { name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) } });
    } else if (block.reasoningContent?.reasoningText) {
      const { text: thought = '', signature } = block.reasoningContent.reasoningText;
      reasoning += thought;
      details.push({ type: 'reasoning.text', text: thought, ...(signature ? { signature } : {}), format: BEDROCK_REASONING_FORMAT, index: details.length });
    } else if (block.reasoningContent?.redactedContent !== undefined) {
      details.push({ type: 'reasoning.encrypted', data: block.reasoningContent.redactedContent, format: BEDROCK_REASONING_FORMAT, index: details.length });
    }
  }
  const error = stopReasonError(stopReason);
  return {
    message: {
      role: 'assistant',
      content: text === '' && toolCalls.length > 0 ? null : text,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      ...(reasoning ? { reasoning } : {}),
      ...(details.length ? { reasoning_details: details } : {}),
    },
    finishReason: mapFinishReason(stopReason),
    usage: convertUsage(usage ?? {}),
    ...(error ? { error } : {}),
  };
}
