// Any server speaking OpenAI's Chat Completions protocol: DeepSeek built in, plus the operator's own
// (CUSTOM_PROVIDERS: vLLM, Ollama, LM Studio, a corporate proxy…), one adapter instance each.
import type { ProviderAdapter } from '../types';
import { convertCompatibleError } from './convert-error';
import { convertCompatibleRequest, type OpenAICompatibleOptions } from './convert-request';
import { convertCompatibleResponse } from './convert-response';
import { createCompatibleStreamConverter } from './convert-stream';
import { deepseekThinkingControl } from './deepseek-thinking';

export function createOpenAICompatibleAdapter(options: OpenAICompatibleOptions = {}): ProviderAdapter {
  return {
    id: 'openai-compatible',
    convertRequest: (req, ctx) => convertCompatibleRequest(req, ctx, options),
    convertResponse: (body) => convertCompatibleResponse(body),
    createStreamConverter: () => createCompatibleStreamConverter(),
    convertError: convertCompatibleError,
    ...(options.supportsChoices ? { supportsChoices: () => true } : {}),
  };
}

/**
 * DeepSeek (https://api-docs.deepseek.com): base URL without /v1, path /chat/completions. Current models
 * think by default; OpenRouter's `reasoning` switches that off or sets the effort (deepseek-thinking.ts).
 */
export const deepseekAdapter: ProviderAdapter = createOpenAICompatibleAdapter({
  baseUrl: 'https://api.deepseek.com',
  sendReasoningContent: true,
  // In thinking mode DeepSeek accepts temperature/top_p but ignores them; not sending them keeps the
  // upstream log honest about what shaped the answer. With thinking off they apply and are sent.
  ignoresSamplingParams: (model) => model.supportsReasoning,
  deepseekThinking: (model) => deepseekThinkingControl(model.upstreamModel),
  // "Setting logprobs, top_logprobs will trigger an error" in thinking mode (api-docs.deepseek.com/guides/thinking_mode).
  refusesLogprobsWhileThinking: (model) => model.supportsReasoning,
});

export { convertCompatibleError } from './convert-error';
export { convertCompatibleRequest, type OpenAICompatibleOptions } from './convert-request';
export { compatibleDialect, convertCompatibleResponse, readCompatibleReasoning } from './convert-response';
export { createCompatibleStreamConverter } from './convert-stream';
export { convertCompatibleUsage } from './convert-usage';
export { mapCompatibleFinishReason } from './map-finish-reason';
