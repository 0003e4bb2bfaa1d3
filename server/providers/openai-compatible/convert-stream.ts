import { createOpenAIStreamConverter } from '../openai/convert-stream';
import type { StreamConverter } from '../types';
import { compatibleDialect } from './convert-response';

/** OpenAI's stream converter with the compatible dialect: `reasoning_content`/`reasoning` deltas become `reasoning`. */
export function createCompatibleStreamConverter(): StreamConverter {
  return createOpenAIStreamConverter(compatibleDialect);
}
