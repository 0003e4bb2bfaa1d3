// The contract between the embeddings use case and each provider's pure converters
// (server/providers/<p>/convert-embeddings.ts): build the upstream request, read its 2xx answer.
import type { ConvertContext, UpstreamRequest } from '@/server/providers/types';
import type { EmbeddingsRequest } from './embeddings-request-schema';

/** One vector: float values, or (when the upstream was asked for base64) OpenAI's base64 of little-endian float32. */
export type EmbeddingVector = number[] | string;

export interface EmbeddingsResult {
  /** In input order, one per input. */
  embeddings: EmbeddingVector[];
  /** Input tokens as the upstream counted them; null when it does not say (Gemini), then estimated. */
  promptTokens: number | null;
}

export interface EmbeddingsConverter {
  /** Throws AppError('bad_request') for what the endpoint cannot take (token arrays to Gemini…). */
  convertRequest(req: EmbeddingsRequest, ctx: ConvertContext): UpstreamRequest;
  /** Parses a 2xx JSON body; throws AppError('upstream_error') when it is not the documented shape. */
  convertResponse(body: unknown): EmbeddingsResult;
}
