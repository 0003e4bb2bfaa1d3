// A 2xx Responses API body (object "response") → ConvertedResponse, and the pieces the stream converter
// shares with it: the output-item schema, how a reasoning item becomes reasoning_details, the finish reason.
import { z } from 'zod';
import { AppError } from '@/server/errors';
import { type ConvertedResponse, EMPTY_USAGE, type FinishReason, type MidStreamError, type ReasoningDetail, type ToolCall } from '../types';
import { customToolArguments } from '../custom-tool-input';
import { convertOpenAIStreamError, openAIErrorSchema } from './convert-error';
import { RESPONSES_REASONING_FORMAT } from './convert-responses-input';
import { convertResponsesUsage, responsesUsageSchema } from './convert-usage';

/** An output item, minimally: only what we read. Types we do not translate (web_search_call, …) still parse. */
export const outputItemSchema = z.looseObject({
  type: z.string(),
  id: z.string().nullish(),
  // message
  content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish(), refusal: z.string().nullish() })).nullish(),
  // function_call (and custom_tool_call, whose `input` is text)
  call_id: z.string().nullish(),
  name: z.string().nullish(),
  arguments: z.string().nullish(),
  input: z.string().nullish(),
  // reasoning
  summary: z.array(z.looseObject({ text: z.string().nullish() })).nullish(),
  encrypted_content: z.string().nullish(),
});

export type OutputItem = z.infer<typeof outputItemSchema>;

export const responseObjectSchema = z.looseObject({
  id: z.string().nullish(),
  status: z.string().nullish(),
  output: z.array(outputItemSchema).nullish(),
  usage: responsesUsageSchema.nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
  error: openAIErrorSchema.nullish(),
});

export type ResponseObject = z.infer<typeof responseObjectSchema>;

/** Summary parts of one reasoning item read as one text, paragraphs apart (the stream joins them the same way). */
export const SUMMARY_PART_SEPARATOR = '\n\n';

/**
 * completed → stop, or tool_calls when the model called a function (Chat Completions' reading); incomplete
 * for max_output_tokens → length, for content_filter → content_filter. Null while the response is running.
 */
export function responsesFinishReason(response: ResponseObject, calledTools: boolean): FinishReason | null {
  if (response.status === 'completed') return calledTools ? 'tool_calls' : 'stop';
  if (response.status === 'incomplete') return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  return null;
}

/** A failed response's error, as a mid-stream error (the stream) or for an AppError (the body). */
export function responsesFailure(response: ResponseObject): MidStreamError {
  return convertOpenAIStreamError(response.error ?? {});
}

export function convertResponsesResponse(body: unknown): ConvertedResponse {
  const parsed = responseObjectSchema.safeParse(body);
  if (!parsed.success) throw new AppError('upstream_error', 'The upstream provider sent a response the gateway cannot read');
  const response = parsed.data;
  if (response.status === 'failed') throw new AppError('upstream_error', responsesFailure(response).message);

  const texts: string[] = [];
  const summaries: string[] = [];
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of response.output ?? []) {
    if (item.type === 'message') {
      // A structured-output refusal is shown as content, as on Chat Completions.
      for (const part of item.content ?? []) texts.push(part.text ?? part.refusal ?? '');
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: item.call_id ?? item.id ?? '', type: 'function', function: { name: item.name ?? '', arguments: item.arguments ?? '' } });
    } else if (item.type === 'custom_tool_call') {
      // A custom (freeform) tool's call, in the internal shape of one (providers/custom-tool-input.ts).
      toolCalls.push({ id: item.call_id ?? item.id ?? '', type: 'function', function: { name: item.name ?? '', arguments: customToolArguments(item.input ?? '') } });
    } else if (item.type === 'reasoning') {
      const summary = (item.summary ?? []).map((part) => part.text ?? '').filter(Boolean).join(SUMMARY_PART_SEPARATOR);
      const id = item.id ?? undefined;
      if (summary) {
        summaries.push(summary);
        details.push({ type: 'reasoning.summary', summary, format: RESPONSES_REASONING_FORMAT, index: details.length, ...(id ? { id } : {}) });
      }
      if (item.encrypted_content) details.push({ type: 'reasoning.encrypted', data: item.encrypted_content, format: RESPONSES_REASONING_FORMAT, index: details.length, ...(id ? { id } : {}) });
    }
  }

  const converted: ConvertedResponse = {
    message: {
      role: 'assistant',
      content: texts.length > 0 ? texts.join('') : null,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      ...(details.length > 0 ? { reasoning: summaries.length > 0 ? summaries.join(SUMMARY_PART_SEPARATOR) : null, reasoning_details: details } : {}),
    },
    finishReason: responsesFinishReason(response, toolCalls.length > 0) ?? 'stop',
    usage: response.usage ? convertResponsesUsage(response.usage) : { ...EMPTY_USAGE },
  };
  if (response.id) converted.upstreamId = response.id;
  return converted;
}
