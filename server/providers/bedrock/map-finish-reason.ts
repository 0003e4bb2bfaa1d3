import type { FinishReason, MidStreamError } from '@/server/providers/types';

/**
 * The model broke its output format (StopReason in the AWS SDKs' Converse models): no usable answer or tool
 * call reaches the client, so the answer finishes with "error" and this error, not "stop" (as Gemini's
 * MALFORMED_FUNCTION_CALL does, gemini/map-finish-reason.ts).
 */
const FAILED = new Set(['malformed_model_output', 'malformed_tool_use']);

/**
 * Converse `stopReason` → OpenAI `finish_reason` (API_runtime_ConverseOutput). A guardrail or content filter
 * stopping the answer is `content_filter`; unknown future reasons read as `stop` rather than failing an
 * answer that was delivered.
 */
export function mapFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return 'error';
    case 'end_turn':
    case 'stop_sequence':
    default:
      return 'stop';
  }
}

/** The error to report with a stop reason that maps to "error"; undefined otherwise. */
export function stopReasonError(stopReason: string | null | undefined): MidStreamError | undefined {
  if (!stopReason || !FAILED.has(stopReason)) return undefined;
  return { code: 'server_error', message: `Bedrock ended the response with ${stopReason}` };
}
