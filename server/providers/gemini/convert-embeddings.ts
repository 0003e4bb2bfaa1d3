// Embeddings through Gemini's v1beta `models/{model}:batchEmbedContents` (ai.google.dev/api/embeddings): one
// EmbedContentRequest per input, each naming the model, with `outputDimensionality` for `dimensions`. The
// answer is `{embeddings: [{values: [...]}]}` in request order, without a token count.
import { z } from 'zod';
import { AppError } from '@/server/errors';
import type { EmbeddingsRequest } from '@/server/embeddings/embeddings-request-schema';
import type { EmbeddingsConverter, EmbeddingsResult } from '@/server/embeddings/embeddings-types';
import type { ConvertContext, UpstreamRequest } from '../types';

/** Gemini refuses larger batches ("at most 100 requests can be in one batch"). */
export const GEMINI_MAX_BATCH = 100;

export function convertGeminiEmbeddingsRequest(req: EmbeddingsRequest, ctx: ConvertContext): UpstreamRequest {
  const { model } = ctx;
  if (req.input.kind === 'tokens') {
    throw new AppError('bad_request', `${model.id} takes text only: token arrays as input are accepted for OpenAI-shaped endpoints`, { model: model.id, param: 'input' });
  }
  if (req.input.texts.length > GEMINI_MAX_BATCH) {
    throw new AppError('bad_request', `${model.id} embeds at most ${GEMINI_MAX_BATCH} inputs per request; this one has ${req.input.texts.length}`, { model: model.id, param: 'input' });
  }
  const name = `models/${model.upstreamModel.replace(/^models\//, '')}`;
  const requests = req.input.texts.map((text) => ({
    model: name,
    content: { parts: [{ text }] },
    ...(req.dimensions !== undefined ? { outputDimensionality: req.dimensions } : {}),
  }));
  // As in convert-request.ts: the base URL with or without /v1beta; the key in a header, never in the URL.
  const base = ctx.config.baseUrl.replace(/\/+$/, '').replace(/\/v1beta$/, '');
  return {
    url: `${base}/v1beta/${encodeURI(name)}:batchEmbedContents`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ctx.config.apiKey ? { 'x-goog-api-key': ctx.config.apiKey } : {}) },
    body: JSON.stringify({ requests }),
  };
}

const responseSchema = z.object({ embeddings: z.array(z.object({ values: z.array(z.number()) })) });

export function convertGeminiEmbeddingsResponse(body: unknown): EmbeddingsResult {
  const r = responseSchema.safeParse(body);
  if (!r.success) throw new AppError('upstream_error', 'Gemini answered the embeddings request with an unexpected body', { issues: r.error.issues.slice(0, 3).map((i) => i.message) });
  return { embeddings: r.data.embeddings.map((e) => e.values), promptTokens: null };
}

export const geminiEmbeddings: EmbeddingsConverter = {
  convertRequest: convertGeminiEmbeddingsRequest,
  convertResponse: convertGeminiEmbeddingsResponse,
};
