import type { FinishReason, MidStreamError } from '../types';

// Every Candidate.FinishReason the v1beta API documents that means "the output was withheld by a filter".
// LANGUAGE (prompt in an unsupported language) is a refusal too, so the client hears content_filter.
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

// The model broke the tool-calling protocol: no usable tool call reaches the client. Reporting "stop" would
// pass an empty or truncated turn off as a complete answer, so these finish with "error" plus a
// MidStreamError naming the reason (see finishReasonError) that the gateway forwards.
const FAILED = new Set([
  'MALFORMED_FUNCTION_CALL',
  'UNEXPECTED_TOOL_CALL',
  'TOO_MANY_TOOL_CALLS',
  'MISSING_THOUGHT_SIGNATURE',
  'MALFORMED_RESPONSE',
]);

/**
 * Gemini finishReason → OpenAI finish_reason. Gemini says STOP after function calls too, so `hasToolCalls`
 * turns it into "tool_calls" as OpenAI clients expect. OTHER, FINISH_REASON_UNSPECIFIED, NO_IMAGE and
 * unknown future values become "stop": the turn ended and whatever was produced was delivered.
 */
export function mapGeminiFinishReason(reason: string, hasToolCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  if (FAILED.has(reason)) return 'error';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** The error to report alongside a finish reason that maps to "error"; undefined otherwise. */
export function finishReasonError(reason: string): MidStreamError | undefined {
  if (!FAILED.has(reason)) return undefined;
  return { code: 'server_error', message: `Gemini ended the response with ${reason}` };
}

/** `promptFeedback.blockReason` with no candidates: Gemini refused the prompt itself (HTTP 200). */
export function promptBlockedError(blockReason: string): MidStreamError {
  return { code: 'content_filter', message: `Gemini blocked the prompt (${blockReason})` };
}
