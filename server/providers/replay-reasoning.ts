// Shared by the converters that send signed reasoning back to its provider (Anthropic, Bedrock) and by the
// Messages API renderer: a client that concatenated streamed fragments naively sends several
// `reasoning.text` entries sharing an index; they are one block, joined here once.
import { AppError } from '@/server/errors';
import type { ReasoningDetail, ToolCall } from './types';

/** Fragments of one detail (same index, type and format) joined, as a client concatenating a stream would. */
export function mergeReasoningFragments(details: readonly ReasoningDetail[]): ReasoningDetail[] {
  const merged: ReasoningDetail[] = [];
  for (const detail of details) {
    const last = merged.at(-1);
    if (last?.type === 'reasoning.text' && detail.type === 'reasoning.text' && detail.index !== undefined && last.index === detail.index && last.format === detail.format) {
      merged[merged.length - 1] = { ...last, text: last.text + detail.text, signature: detail.signature || last.signature };
    } else merged.push(detail);
  }
  return merged;
}

/** A tool call's `arguments` as the JSON object Anthropic-style APIs take ("" — some clients send it — is {}). */
export function toolCallInput(call: ToolCall): Record<string, unknown> {
  let input: unknown;
  try {
    input = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch {
    throw new AppError('bad_request', `Tool call ${call.id} (${call.function.name}) has arguments that are not valid JSON`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AppError('bad_request', `Tool call ${call.id} (${call.function.name}) must have a JSON object as arguments`);
  }
  return input as Record<string, unknown>;
}
