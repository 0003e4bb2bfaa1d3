// CUSTOM_PROVIDERS, the short form (README), as entries of the routing configuration: each provider becomes
// an openai-compatible provider, each of its models a model `<provider id>/<model id>` with one endpoint.
// Parsing and its messages stay in server/providers/custom-providers.ts, so operators see what they always did.
import type { CustomProvider } from '@/server/providers/custom-providers';
import type { ModelConfigEntry, ProviderConfigEntry } from './config-schema';

export function convertCustomProviders(list: readonly CustomProvider[]): { providers: ProviderConfigEntry[]; models: ModelConfigEntry[] } {
  const providers: ProviderConfigEntry[] = [];
  const models: ModelConfigEntry[] = [];
  for (const p of list) {
    providers.push({
      id: p.id,
      type: 'openai-compatible',
      name: p.id,
      base_url: p.baseUrl,
      // apiKey wins over apiKeyEnv, as it always did; neither = a local server that needs no key.
      keys: p.apiKey ? [{ key: p.apiKey, weight: 1 }] : p.apiKeyEnv ? [{ key_env: p.apiKeyEnv, weight: 1 }] : [],
      headers: p.headers,
      supports_stream_options: p.supportsStreamOptions,
      enabled: true,
    });
    for (const m of p.models) {
      models.push({
        id: `${p.id}/${m.id}`,
        name: m.name ?? `${p.id}: ${m.id}`,
        description: `Served by ${p.baseUrl}`,
        kind: m.kind,
        context_length: m.contextLength,
        max_output_tokens: m.maxOutputTokens,
        supports_reasoning: m.supportsReasoning,
        supports_images: m.supportsImages,
        supports_pdf: m.supportsPdf,
        supports_tools: m.supportsTools,
        aliases: [],
        endpoints: [
          {
            provider: p.id,
            upstream_model: m.upstreamModel ?? m.id,
            pricing: { input: m.inputPrice, output: m.outputPrice, cache_read: m.cacheReadPrice, cache_write: 0 },
          },
        ],
        enabled: true,
      });
    }
  }
  return { providers, models };
}
