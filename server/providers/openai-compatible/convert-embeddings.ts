// Embeddings for servers speaking OpenAI's protocol (vLLM, Ollama, LM Studio, llama.cpp…): OpenAI's shape,
// always asked for floats (several ignore or reject `encoding_format: base64`); the gateway encodes base64.
import type { EmbeddingsConverter } from '@/server/embeddings/embeddings-types';
import { convertOpenAIEmbeddingsRequest, convertOpenAIEmbeddingsResponse } from '../openai/convert-embeddings';

export const compatibleEmbeddings: EmbeddingsConverter = {
  convertRequest: (req, ctx) => convertOpenAIEmbeddingsRequest(req, ctx, { passBase64: false }),
  convertResponse: convertOpenAIEmbeddingsResponse,
};
