import { microsToUsd } from '@/server/ledger/money';
import type { CatalogModel } from './resolve-model';

const perToken = (perMillion: number) => String(microsToUsd(perMillion) / 1_000_000);

/** OpenRouter's model shape, plus our two capability names. Prices are USD per token, as strings. */
export function toModelDto(m: CatalogModel) {
  const supported = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'response_format', 'structured_outputs', 'user'];
  if (m.supportsTools) supported.push('tools', 'tool_choice', 'parallel_tool_calls');
  if (m.supportsReasoning) supported.push('reasoning', 'include_reasoning');
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    created: 0,
    context_length: m.contextLength,
    pricing: {
      prompt: perToken(m.inputPrice),
      completion: perToken(m.outputPrice),
      input_cache_read: perToken(m.cacheReadPrice),
      input_cache_write: perToken(m.cacheWritePrice),
      request: '0',
      image: '0',
    },
    architecture: {
      modality: m.supportsImages ? 'text+image->text' : 'text->text',
      input_modalities: m.supportsImages ? ['text', 'image'] : ['text'],
      output_modalities: ['text'],
    },
    top_provider: { context_length: m.contextLength, max_completion_tokens: m.maxOutputTokens, is_moderated: false },
    supported_parameters: supported,
    supportsReasoning: m.supportsReasoning,
    supportsImages: m.supportsImages,
    provider: m.provider,
  };
}
