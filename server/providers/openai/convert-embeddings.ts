// Embeddings in OpenAI's shape (POST {base}/embeddings, platform.openai.com/docs/api-reference/embeddings),
// for OpenAI itself and every OpenAI-compatible server (vLLM, Ollama, LM Studio, a corporate proxy…).
import { z } from 'zod';
import { AppError } from '@/server/errors';
import type { EmbeddingsRequest } from '@/server/embeddings/embeddings-request-schema';
import type { EmbeddingsConverter, EmbeddingsResult } from '@/server/embeddings/embeddings-types';
import type { ConvertContext, UpstreamRequest } from '../types';
import { jsonHeaders } from './convert-request';

export interface OpenAIEmbeddingsOptions {
  /**
   * Ask the upstream for base64 when the client does (OpenAI returns it; it is a quarter of the JSON). Off for
   * compatible servers, some of which ignore or reject `encoding_format`: they are asked for floats and the
   * gateway encodes.
   */
  passBase64: boolean;
}

export function convertOpenAIEmbeddingsRequest(req: EmbeddingsRequest, ctx: ConvertContext, options: OpenAIEmbeddingsOptions): UpstreamRequest {
  const baseUrl = ctx.config.baseUrl;
  if (!baseUrl) throw new AppError('internal', `No base URL is configured for provider "${ctx.model.provider}"`);
  const body: Record<string, unknown> = {
    model: ctx.model.upstreamModel,
    input: req.input.kind === 'text' ? req.input.texts : req.input.tokens,
    encoding_format: options.passBase64 ? req.encoding_format : 'float',
  };
  if (req.dimensions !== undefined) body.dimensions = req.dimensions;
  if (req.user !== undefined) body.user = req.user;
  return { url: `${baseUrl.replace(/\/+$/, '')}/embeddings`, method: 'POST', headers: jsonHeaders(ctx.config.apiKey), body: JSON.stringify(body) };
}

// Minimal: what is read. `index` orders the data (OpenAI returns it in order; the index is what it promises).
const responseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0).optional(), embedding: z.union([z.array(z.number()), z.string()]) })),
  usage: z.object({ prompt_tokens: z.number().int().min(0).optional() }).nullish(),
});

export function convertOpenAIEmbeddingsResponse(body: unknown): EmbeddingsResult {
  const r = responseSchema.safeParse(body);
  if (!r.success) throw new AppError('upstream_error', 'The provider answered the embeddings request with an unexpected body', { issues: r.error.issues.slice(0, 3).map((i) => i.message) });
  const data = r.data.data.every((d) => d.index !== undefined) ? [...r.data.data].sort((a, b) => a.index! - b.index!) : r.data.data;
  return { embeddings: data.map((d) => d.embedding), promptTokens: r.data.usage?.prompt_tokens ?? null };
}

export const openaiEmbeddings: EmbeddingsConverter = {
  convertRequest: (req, ctx) => convertOpenAIEmbeddingsRequest(req, ctx, { passBase64: true }),
  convertResponse: convertOpenAIEmbeddingsResponse,
};
