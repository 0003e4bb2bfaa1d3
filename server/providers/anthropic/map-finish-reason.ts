import type { FinishReason } from '@/server/providers/types';

/**
 * Anthropic `stop_reason` → OpenAI `finish_reason`.
 * pause_turn (a server tool paused a long turn) is surfaced as `stop`: the turn ended without an error
 * and the client may simply continue the conversation. Unknown future reasons also read as `stop`
 * rather than failing a response that was otherwise delivered.
 */
export function mapFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    default:
      return 'stop';
  }
}
