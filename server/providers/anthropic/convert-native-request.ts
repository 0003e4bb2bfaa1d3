// A Messages API request from a client that speaks it (/api/v1/messages) → POST /v1/messages, nearly
// unchanged: thinking signatures, cache breakpoints, server tools and fields we do not know go byte for
// byte. Only what the gateway decides changes: the endpoint's upstream model name, `stream`, and
// `max_tokens` capped to the model's maximum (what the reservation was computed for).
import type { NativeRequest } from '@/server/gateway/chat-request-schema';
import type { ChatRequest, ConvertContext, UpstreamRequest } from '@/server/providers/types';
import { ANTHROPIC_VERSION } from './convert-request';

type AnthropicNative = Extract<NativeRequest, { format: 'anthropic-messages' }>;

/** Headers for Anthropic: our key; the client's `anthropic-beta` and `anthropic-version` (else ours) forwarded. */
export function anthropicHeaders(ctx: ConvertContext, beta: string | undefined, version?: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': version || ANTHROPIC_VERSION };
  if (beta) headers['anthropic-beta'] = beta;
  if (ctx.config.apiKey) headers['x-api-key'] = ctx.config.apiKey;
  return headers;
}

/** Accepts "https://api.anthropic.com" and "https://api.anthropic.com/v1" alike. */
export function anthropicUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/${path}`;
}

export function convertNativeRequest(req: ChatRequest, native: AnthropicNative, ctx: ConvertContext): UpstreamRequest {
  // Assigning existing keys keeps their place: the body's order is the client's.
  const body: Record<string, unknown> = { ...native.body, model: ctx.model.upstreamModel };
  const asked = typeof body.max_tokens === 'number' ? body.max_tokens : ctx.model.maxOutputTokens;
  body.max_tokens = Math.min(asked, ctx.model.maxOutputTokens);
  body.stream = req.stream;
  return { url: anthropicUrl(ctx.config.baseUrl, 'messages'), method: 'POST', headers: anthropicHeaders(ctx, native.beta, native.version), body: JSON.stringify(body) };
}
