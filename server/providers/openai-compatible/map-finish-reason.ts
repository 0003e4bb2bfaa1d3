import { mapOpenAIFinishReason } from '../openai/map-finish-reason';
import type { FinishReason } from '../types';

/** OpenAI's reasons plus the ones compatible servers add when THEY cut an answer short. */
export function mapCompatibleFinishReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    // DeepSeek: "the request is interrupted due to insufficient resource of the inference system".
    case 'insufficient_system_resource':
    // vLLM: the engine aborted the request (preemption, shutdown).
    case 'abort':
      return 'error';
    default:
      return mapOpenAIFinishReason(reason);
  }
}
