import { convertMessagesBody } from '../anthropic/convert-request';
import { convertGeminiBody } from '../gemini/convert-request';
import type { ChatRequest, ConvertContext, UpstreamRequest } from '../types';
import { vertexModelUrl, vertexPublisher } from './vertex-url';

/** Claude on Vertex names its Messages API version in the body (platform.claude.com/docs "Claude on Vertex AI"). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface VertexLocation {
  project: string;
  location: string;
}

/**
 * ChatRequest → a Vertex AI prediction request. Gemini: the generateContent body Google AI takes, at
 * `…/publishers/google/models/{m}:generateContent` (`:streamGenerateContent?alt=sse`). Claude: the Messages
 * body without `model` (it is in the path) and with `anthropic_version` in place of the header, at
 * `…/publishers/anthropic/models/{m}:rawPredict` (`:streamRawPredict`); betas keep their header. The
 * Authorization header is added by the adapter's authorize, right before sending.
 */
export function convertVertexRequest(req: ChatRequest, ctx: ConvertContext, at: VertexLocation): UpstreamRequest {
  const publisher = vertexPublisher(ctx.model.upstreamModel);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let body: Record<string, unknown>;
  let action: string;
  if (publisher === 'google') {
    body = convertGeminiBody(req, ctx);
    action = req.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  } else {
    const converted = convertMessagesBody(req, ctx);
    const { model: _inPath, ...rest } = converted.body;
    body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
    if (converted.betas.length > 0) headers['anthropic-beta'] = converted.betas.join(',');
    action = req.stream ? 'streamRawPredict' : 'rawPredict';
  }
  const url = vertexModelUrl({ baseUrl: ctx.config.baseUrl, ...at, publisher, model: ctx.model.upstreamModel, action });
  return { url, method: 'POST', headers, body: JSON.stringify(body) };
}
