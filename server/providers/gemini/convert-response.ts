import { AppError } from '@/server/errors';
import { EMPTY_USAGE, type AssistantMessage, type ConvertedResponse, type ReasoningDetail, type StreamDelta, type ToolCall } from '../types';
import { createPartsConverter } from './convert-parts';
import { convertGeminiUsage } from './convert-usage';
import { generateContentResponseSchema } from './generate-content-response';
import { finishReasonError, mapGeminiFinishReason, promptBlockedError } from './map-finish-reason';

/** A 2xx `generateContent` body → one assistant message. Only the first candidate is read (we never ask for more). */
export function convertGeminiResponse(body: unknown): ConvertedResponse {
  const parsed = generateContentResponseSchema.safeParse(body);
  if (!parsed.success) throw new AppError('upstream_error', 'Gemini returned a response the gateway cannot read');
  const response = parsed.data;
  const usage = response.usageMetadata ? convertGeminiUsage(response.usageMetadata) : { ...EMPTY_USAGE };
  const upstreamId = response.responseId;
  const candidate = response.candidates?.[0];

  if (!candidate) {
    // A refused prompt comes back as HTTP 200 with promptFeedback and no candidates at all.
    const error = response.promptFeedback?.blockReason
      ? promptBlockedError(response.promptFeedback.blockReason)
      : { code: 'server_error' as const, message: 'Gemini returned no candidates' };
    return {
      message: { role: 'assistant', content: null },
      finishReason: error.code === 'content_filter' ? 'content_filter' : 'error',
      usage,
      upstreamId,
      error,
    };
  }

  const parts = createPartsConverter();
  const message = foldDeltas(parts.convert(candidate.content?.parts ?? []));
  const reason = candidate.finishReason ?? 'STOP';
  const error = finishReasonError(reason);
  return {
    message,
    finishReason: mapGeminiFinishReason(reason, parts.toolCallCount > 0),
    usage,
    upstreamId,
    ...(error ? { error } : {}),
  };
}

/** Accumulates deltas the way a client would: text concatenated, reasoning.text merged by index. */
function foldDeltas(deltas: StreamDelta[]): AssistantMessage {
  let content = '';
  let reasoning = '';
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  for (const delta of deltas) {
    content += delta.content ?? '';
    reasoning += delta.reasoning ?? '';
    for (const call of delta.tool_calls ?? []) {
      toolCalls.push({ id: call.id ?? '', type: 'function', function: { name: call.function.name ?? '', arguments: call.function.arguments ?? '' } });
    }
    for (const detail of delta.reasoning_details ?? []) {
      const last = details.at(-1);
      if (detail.type === 'reasoning.text' && last?.type === 'reasoning.text' && last.index === detail.index) {
        last.text += detail.text;
        if (detail.signature) last.signature = detail.signature;
      } else {
        details.push({ ...detail });
      }
    }
  }
  return {
    role: 'assistant',
    content: content || null,
    ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    ...(reasoning ? { reasoning } : {}),
    ...(details.length ? { reasoning_details: details } : {}),
  };
}
