// Which converter builds an embeddings request for a provider type. The routing table keeps an embedding
// model's endpoints only on these types (routing/config-schema.ts EMBEDDING_PROVIDER_TYPES).
import { geminiEmbeddings } from '@/server/providers/gemini/convert-embeddings';
import { openaiEmbeddings } from '@/server/providers/openai/convert-embeddings';
import { compatibleEmbeddings } from '@/server/providers/openai-compatible/convert-embeddings';
import type { ProviderType } from '@/server/routing/config-schema';
import type { EmbeddingsConverter } from './embeddings-types';

const CONVERTERS: Partial<Record<ProviderType, EmbeddingsConverter>> = {
  openai: openaiEmbeddings,
  'openai-compatible': compatibleEmbeddings,
  gemini: geminiEmbeddings,
};

export function embeddingsConverterFor(type: ProviderType): EmbeddingsConverter | undefined {
  return CONVERTERS[type];
}
