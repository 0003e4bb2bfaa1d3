import { AppError } from '@/server/errors';
import { convertMessagesBody } from '../anthropic/convert-request';
import { convertGeminiBody } from '../gemini/convert-request';
import { convertCompatibleRequest } from '../openai-compatible/convert-request';
import type { ChatRequest, ConvertContext, UpstreamRequest } from '../types';
import { vertexApi, vertexBaseUrl, vertexChatCompletionsUrl, vertexExpressUrl, vertexModelUrl, vertexPublisher } from './vertex-url';

/** Claude on Vertex names its Messages API version in the body (platform.claude.com/docs "Claude on Vertex AI"). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export interface VertexLocation {
  project: string;
  location: string;
  /** The entry gave base_url (Private Service Connect, a test fake): express mode goes there too, else to the global host. */
  explicitBaseUrl?: boolean;
}

/**
 * ChatRequest → a Vertex AI request. Gemini: the generateContent body Google AI takes, at
 * `…/publishers/google/models/{m}:generateContent` (`:streamGenerateContent?alt=sse`). Claude: the Messages
 * body without `model` (it is in the path) and with `anthropic_version` in place of the header, at
 * `…/publishers/anthropic/models/{m}:rawPredict` (`:streamRawPredict`); betas keep their header. Partner and
 * open models (`publisher/model`): the Chat Completions body at `…/endpoints/openapi/chat/completions`, with
 * stream_options so streams end with usage. The Authorization header is added by the adapter's authorize.
 *
 * With an API key (a `keys` entry: Vertex AI express mode), Gemini goes to the express-mode path with the key
 * in `x-goog-api-key` and no OAuth; express mode serves Google's models only, so Claude and partner models
 * still need the provider's service account.
 */
export function convertVertexRequest(req: ChatRequest, ctx: ConvertContext, at: VertexLocation): UpstreamRequest {
  const api = vertexApi(ctx.model.upstreamModel);
  const apiKey = api === 'gemini' ? ctx.config.apiKey : undefined;
  if (!apiKey && !at.project) {
    throw new AppError('service_unavailable', `Vertex AI provider "${ctx.model.provider}" has no project: ${ctx.model.upstreamModel} needs a service account (API keys reach Gemini models only)`, {
      provider: ctx.model.provider,
    });
  }
  if (api === 'chat-completions') {
    const base = vertexChatCompletionsUrl(ctx.config.baseUrl, at.project, at.location).replace(/\/chat\/completions$/, '');
    const converted = convertCompatibleRequest(req, { ...ctx, config: { ...ctx.config, baseUrl: base, apiKey: undefined } }, { supportsStreamOptions: true });
    return { ...converted, headers: { 'content-type': 'application/json' } };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let body: Record<string, unknown>;
  let action: string;
  if (api === 'gemini') {
    body = convertGeminiBody(req, ctx);
    action = req.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    if (apiKey) {
      const base = at.explicitBaseUrl ? ctx.config.baseUrl : vertexBaseUrl('global');
      return { url: vertexExpressUrl(base, ctx.model.upstreamModel, action), method: 'POST', headers: { ...headers, 'x-goog-api-key': apiKey }, body: JSON.stringify(body) };
    }
  } else {
    refuseImageUrls(req, ctx.model.id);
    const converted = convertMessagesBody(req, ctx);
    const { model: _inPath, ...rest } = converted.body;
    body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
    if (converted.betas.length > 0) headers['anthropic-beta'] = converted.betas.join(',');
    action = req.stream ? 'streamRawPredict' : 'rawPredict';
  }
  const url = vertexModelUrl({ baseUrl: ctx.config.baseUrl, project: at.project, location: at.location, publisher: vertexPublisher(api), model: ctx.model.upstreamModel, action });
  return { url, method: 'POST', headers, body: JSON.stringify(body) };
}

/**
 * Claude on Vertex AI takes base64 image sources only (platform.claude.com/docs "Vision", supported platforms:
 * Google-managed Claude), where Anthropic's API also fetches URLs. Said here, before anything is sent: the
 * next endpoint (Anthropic's API) may take the URL, and otherwise the client learns what to send instead.
 */
function refuseImageUrls(req: ChatRequest, modelId: string): void {
  for (const message of req.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'image_url' && /^https?:\/\//i.test(part.image_url.url)) {
        throw new AppError('bad_request', `${modelId} on Vertex AI takes images as base64 data URLs (data:image/png;base64,…), not http(s) URLs`, { model: modelId });
      }
    }
  }
}
