import type { FinishReason } from '@/server/providers/types';

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
    case 'end_turn':
    case 'stop_sequence':
    default:
      return 'stop';
  }
}
