import { usdPerToken } from '@/server/routing/model-endpoints';
import { chargedPrices, type RoutingEndpoint, type RoutingModel } from '@/server/routing/routing-table';

/** The endpoint a model is priced and described by: its first usable one, else its first. */
export function primaryEndpoint(m: RoutingModel): RoutingEndpoint {
  return m.endpoints.find((e) => e.provider.enabled && e.provider.configured) ?? m.endpoints[0]!;
}

/**
 * USD per token as exact decimal strings, OpenRouter's pricing shape; cache prices as charged (chargedPrices).
 * `input_cache_write_1h` is ours: writes to Anthropic's 1-hour cache.
 */
export function pricingDto(e: RoutingEndpoint) {
  const charged = chargedPrices(e);
  return {
    prompt: usdPerToken(charged.input),
    completion: usdPerToken(charged.output),
    input_cache_read: usdPerToken(charged.cacheRead),
    input_cache_write: usdPerToken(charged.cacheWrite),
    input_cache_write_1h: usdPerToken(charged.cacheWrite1h),
    request: '0',
    image: '0',
  };
}

/**
 * OpenRouter's model shape, plus our capability names and `available` (an endpoint of it can serve here:
 * its provider is configured and enabled). Prices are the primary endpoint's; every endpoint's are at
 * GET /api/v1/models/{author}/{slug}/endpoints.
 */
export function toModelDto(m: RoutingModel) {
  const embedding = m.kind === 'embedding';
  const supported = embedding ? ['dimensions', 'encoding_format', 'user'] : ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'response_format', 'structured_outputs', 'user'];
  if (!embedding && m.supportsTools) supported.push('tools', 'tool_choice', 'parallel_tool_calls');
  if (!embedding && m.supportsReasoning) supported.push('reasoning', 'include_reasoning');
  const primary = primaryEndpoint(m);
  // OpenRouter's names: "file" for PDF documents.
  const input = ['text', ...(m.supportsImages ? ['image'] : []), ...(m.supportsPdf ? ['file'] : [])];
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    created: 0,
    context_length: m.contextLength,
    pricing: pricingDto(primary),
    /** `embedding` models are served by POST /api/v1/embeddings only; `chat` by the chat routes. */
    kind: m.kind,
    architecture: embedding
      ? { modality: 'text->embeddings', input_modalities: ['text'], output_modalities: ['embeddings'] }
      : { modality: `${input.join('+')}->text`, input_modalities: input, output_modalities: ['text'] },
    top_provider: { context_length: primary.contextLength, max_completion_tokens: embedding ? 0 : primary.maxOutputTokens, is_moderated: false },
    supported_parameters: supported,
    supportsReasoning: m.supportsReasoning,
    supportsImages: m.supportsImages,
    supportsPdf: m.supportsPdf,
    provider: primary.provider.id,
    aliases: m.aliases,
    available: m.endpoints.some((e) => e.provider.enabled && e.provider.configured),
  };
}
