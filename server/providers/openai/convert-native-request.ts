// A client's own Responses API body (POST /api/v1/responses, `native.format` 'openai-responses') → OpenAI's
// POST /responses, nearly unchanged: every item type, hosted and custom tools, encrypted reasoning byte for
// byte. What changes: the upstream model name; `stream` as the gateway decided; `store: false` (the gateway
// keeps state itself, and `previous_response_id` was already expanded into `input`); the encrypted reasoning
// asked for, so it round-trips; max_output_tokens capped to the endpoint's maximum; parameters OpenAI does not
// document (a client's extras) left out, as OpenAI answers 400 to unknown parameters. Every model is sent
// here, whatever API model-profile.ts would pick for a chat request, and the answer is read by content
// (isResponsesBody, createEitherStreamConverter), since the adapter's context does not carry the request.
import type { ChatRequest, ConvertContext, SseEvent, StreamConverter, UpstreamRequest } from '../types';
import { jsonHeaders } from './convert-request';
import { createResponsesStreamConverter } from './convert-responses-stream';
import { createOpenAIStreamConverter } from './convert-stream';

/** OpenAI's documented request parameters (platform.openai.com/docs/api-reference/responses/create). */
const PASSED = new Set([
  'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tool_calls', 'reasoning', 'max_output_tokens', 'temperature',
  'top_p', 'top_logprobs', 'text', 'include', 'metadata', 'prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'user',
  'service_tier', 'truncation', 'stream_options',
]);

const ENCRYPTED = 'reasoning.encrypted_content';

/** Reasoning items carrying another provider's reasoning (our envelope, formats/openai-responses) mean nothing to OpenAI. */
const isForeignReasoning = (item: unknown) =>
  typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'reasoning' && String((item as { encrypted_content?: unknown }).encrypted_content ?? '').startsWith('sbr1.');

export function convertNativeResponsesRequest(req: ChatRequest, body: Record<string, unknown>, ctx: ConvertContext): UpstreamRequest {
  const { model } = ctx;
  const out: Record<string, unknown> = { model: model.upstreamModel };
  for (const [name, value] of Object.entries(body)) if (PASSED.has(name) && value !== undefined && value !== null) out[name] = value;
  if (Array.isArray(out.input)) out.input = out.input.filter((item) => !isForeignReasoning(item));
  out.store = false;
  if (req.stream) out.stream = true;
  else delete out.stream_options;
  if (model.supportsReasoning) {
    // Without it a stateless (store: false) conversation loses the model's reasoning at every turn.
    const include = Array.isArray(out.include) ? (out.include as unknown[]) : [];
    out.include = include.includes(ENCRYPTED) ? include : [...include, ENCRYPTED];
  }
  if (typeof out.max_output_tokens === 'number' && out.max_output_tokens > model.maxOutputTokens) out.max_output_tokens = model.maxOutputTokens;
  const url = `${ctx.config.baseUrl.replace(/\/+$/, '')}/responses`;
  return { url, method: 'POST', headers: jsonHeaders(ctx.config.apiKey), body: JSON.stringify(out) };
}

/** A Responses API body (object "response") rather than a chat completion. */
export const isResponsesBody = (body: unknown) => typeof body === 'object' && body !== null && (body as { object?: unknown }).object === 'response';

/**
 * For a model whose chat requests use Chat Completions: the stream is read by whichever converter its first
 * event calls for (Responses events are typed `response.*`; chat chunks are untyped `data:` lines).
 */
export function createEitherStreamConverter(): StreamConverter {
  let inner: StreamConverter | null = null;
  const pick = (event: SseEvent): StreamConverter =>
    (inner ??= event.event?.startsWith('response.') || event.data.startsWith('{"type":"response.') ? createResponsesStreamConverter() : createOpenAIStreamConverter());
  return {
    push: (event) => pick(event).push(event),
    get finishReason() {
      return inner?.finishReason ?? null;
    },
    get otherFinishReasons() {
      return inner?.otherFinishReasons;
    },
    get usage() {
      return inner?.usage ?? null;
    },
    get error() {
      return inner?.error ?? null;
    },
    get done() {
      return inner?.done ?? false;
    },
    get upstreamId() {
      return inner?.upstreamId ?? null;
    },
  };
}
