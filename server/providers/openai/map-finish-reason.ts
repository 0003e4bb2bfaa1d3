import type { FinishReason } from '../types';

/**
 * OpenAI's finish_reason → ours. null means "not finished yet" (every chunk but the last). A value we do
 * not know (an OpenAI-compatible server inventing its own) counts as a normal stop: the text it sent is
 * complete as far as anyone can tell, and failing the whole response over a label would be worse.
 */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'stop':
    case 'length':
    case 'tool_calls':
    case 'content_filter':
      return reason;
    // The pre-tools name of the same thing; older Azure deployments still send it.
    case 'function_call':
      return 'tool_calls';
    default:
      return 'stop';
  }
}
