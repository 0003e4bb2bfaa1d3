// Input tokens of an embeddings request before (worst case, for the reservation) and, for upstreams that
// report none (Gemini), after the call (the likely count): the one estimator's rules (providers/estimate-tokens.ts).
// Token-id inputs are counted exactly.
import { estimateTokensFromChars, worstCasePromptTokens } from '@/server/providers/estimate-tokens';
import type { EmbeddingsRequest } from './embeddings-request-schema';

export function worstCaseEmbeddingTokens(req: EmbeddingsRequest): number {
  if (req.input.kind === 'tokens') return req.input.tokens.reduce((n, t) => n + t.length, 0);
  return req.input.texts.reduce((n, text) => n + worstCasePromptTokens({ textBytes: Buffer.byteLength(text), framingBytes: 0, images: 0, pdfPages: 0 }), 0);
}

export function likelyEmbeddingTokens(req: EmbeddingsRequest): number {
  if (req.input.kind === 'tokens') return req.input.tokens.reduce((n, t) => n + t.length, 0);
  return req.input.texts.reduce((n, text) => n + estimateTokensFromChars(Buffer.byteLength(text)), 0);
}
