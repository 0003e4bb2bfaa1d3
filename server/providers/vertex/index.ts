// Google Vertex AI: Gemini, Claude and Model Garden's partner and open models (Llama, Mistral…) in a Google
// Cloud project, through the Gemini, Anthropic and OpenAI-compatible converters. Only the URL, the Claude
// body's version field and the credentials differ: an OAuth access token of the service account, added in
// authorize from a cache held by this adapter instance (one per provider entry, built by
// build-vertex-adapter.ts), or for Gemini an express-mode API key (convert-request.ts).
import { AppError } from '@/server/errors';
import { untilAborted } from '@/server/http/cancel-signal';
import { convertResponse as convertAnthropicResponse } from '../anthropic/convert-response';
import { createStreamConverter as createAnthropicStreamConverter } from '../anthropic/convert-stream';
import { convertGeminiResponse } from '../gemini/convert-response';
import { createGeminiStreamConverter } from '../gemini/convert-stream';
import { convertCompatibleResponse, createCompatibleStreamConverter } from '../openai-compatible';
import type { ProviderAdapter } from '../types';
import type { AccessTokenCache } from './access-token-cache';
import { convertVertexError } from './convert-error';
import { convertVertexRequest, type VertexLocation } from './convert-request';
import { vertexApi } from './vertex-url';

export interface VertexAdapterOptions extends VertexLocation {
  /** The provider entry's id, named in errors. */
  providerId: string;
  tokens: AccessTokenCache;
}

const RESPONSE = { gemini: convertGeminiResponse, claude: convertAnthropicResponse, 'chat-completions': convertCompatibleResponse } as const;
const STREAM = { gemini: createGeminiStreamConverter, claude: createAnthropicStreamConverter, 'chat-completions': createCompatibleStreamConverter } as const;

export function createVertexAdapter(o: VertexAdapterOptions): ProviderAdapter {
  const at: VertexLocation = { project: o.project, location: o.location, explicitBaseUrl: o.explicitBaseUrl };
  return {
    id: 'vertex',
    convertRequest: (req, ctx) => convertVertexRequest(req, ctx, at),
    convertResponse: (body, ctx) => RESPONSE[vertexApi(ctx.model.upstreamModel)](body),
    createStreamConverter: (ctx) => STREAM[vertexApi(ctx.model.upstreamModel)](),
    convertError: (status, body, headers) => {
      // A token refused before its time (revoked, clock skew): the next request fetches a new one.
      if (status === 401) o.tokens.invalidate();
      return convertVertexError(status, body, headers);
    },
    async authorize(request, _ctx, signal) {
      // Express mode: the API key is the credential (convert-request.ts put it in x-goog-api-key).
      if (request.headers['x-goog-api-key']) return request;
      let token: string;
      try {
        token = await untilAborted(o.tokens.get(), signal);
      } catch (err) {
        if (signal.aborted) throw err;
        const reason = err instanceof Error ? err.message : String(err);
        throw new AppError('service_unavailable', `Vertex AI provider "${o.providerId}" could not get an access token for its service account (${reason.slice(0, 200)})`, {
          provider: o.providerId,
        });
      }
      return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
    },
  };
}

