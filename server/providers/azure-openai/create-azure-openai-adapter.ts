// The Azure OpenAI adapter (see index.ts): OpenAI's converters with Azure's URL, key header, Entra ID token and errors.
import { convertOpenAIRequest } from '../openai/convert-request';
import { convertOpenAIResponse } from '../openai/convert-response';
import { createOpenAIStreamConverter } from '../openai/convert-stream';
import type { ProviderAdapter } from '../types';
import { AppError } from '@/server/errors';
import { azureChatUrl, lacksStreamUsage } from './azure-chat-url';
import { convertAzureError } from './convert-error';
import type { EntraTokenSource } from './entra-token-source';

export interface AzureOpenAIOptions {
  /** The dated `api-version`; absent (or "v1") = Azure's v1 API. */
  apiVersion?: string;
  /** Microsoft Entra ID client credentials; without them the provider's key goes in the `api-key` header. */
  entra?: EntraTokenSource;
}

export function createAzureOpenAIAdapter(options: AzureOpenAIOptions = {}): ProviderAdapter {
  return {
    id: 'azure-openai',
    convertRequest: (req, ctx) => {
      if (req.stream && lacksStreamUsage(ctx.config.baseUrl, options.apiVersion)) {
        // The operator's setting, not the client's request: a 503 naming the fix (and the next endpoint may serve).
        throw new AppError(
          'service_unavailable',
          `Provider "${ctx.model.provider}" uses Azure api-version ${options.apiVersion}, which cannot report a stream's token usage (stream_options): the operator must set api_version to 2024-10-21 or later, or leave it out for Azure's v1 API`,
          { provider: ctx.model.provider },
        );
      }
      const request = convertOpenAIRequest(req, ctx);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      // Azure's key header; OpenAI's `authorization: Bearer <key>` is refused there. With Entra ID the
      // bearer token is added in authorize, right before the send.
      if (!options.entra && ctx.config.apiKey) headers['api-key'] = ctx.config.apiKey;
      return { ...request, url: azureChatUrl(ctx.config.baseUrl, ctx.model.upstreamModel, options.apiVersion), headers };
    },
    convertResponse: (body) => convertOpenAIResponse(body),
    createStreamConverter: () => createOpenAIStreamConverter(),
    convertError: (status, body, headers) => {
      // A token refused before its time: the next request gets a new one rather than this one until it expires.
      if (status === 401) options.entra?.invalidate();
      return convertAzureError(status, body, headers);
    },
    // Chat Completions' `n`, as at OpenAI.
    supportsChoices: () => true,
    ...(options.entra
      ? {
          authorize: async (request, _ctx, signal) => {
            const token = await options.entra!.token(signal);
            return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
          },
        }
      : {}),
  };
}
