// Classifies OpenAI's error answers: a non-2xx before the stream starts (convertOpenAIError) and the
// `{"error":{…}}` chunk OpenAI can send in the middle of a stream (convertOpenAIStreamError).
//
// What reaches the client is chosen with care: an upstream's 401 message echoes a hint of OUR key and
// its 429 message names OUR organization, so those get a message of our own; 4xx messages about the
// request itself (bad parameter, prompt too long) are the client's business and are passed on.
import { z } from 'zod';
import type { MidStreamError, UpstreamFailure } from '../types';

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

export const openAIErrorSchema = z.looseObject({
  message: z.string().nullish(),
  type: z.string().nullish(),
  param: z.string().nullish(),
  // OpenAI sends a string or null; vLLM and others send the HTTP status as a number.
  code: z.union([z.string(), z.number()]).nullish(),
});

export type OpenAIError = z.infer<typeof openAIErrorSchema>;

const wrappedErrorSchema = z.looseObject({ error: z.union([openAIErrorSchema, z.string()]) });
// Older vLLM answers with the error object itself, unwrapped: {"object":"error","message":…}.
const bareErrorSchema = openAIErrorSchema.extend({ message: z.string() });

/** The `error` object of an error body, or null when the body is not OpenAI-shaped (an HTML proxy page…). */
export function parseOpenAIErrorBody(body: string): OpenAIError | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const wrapped = wrappedErrorSchema.safeParse(json);
  // Ollama sends {"error":"model 'x' not found"}.
  if (wrapped.success) return typeof wrapped.data.error === 'string' ? { message: wrapped.data.error } : wrapped.data.error;
  const bare = bareErrorSchema.safeParse(json);
  return bare.success ? bare.data : null;
}

/** Case-insensitive: undici lowercases header names, a hand-built record may not. */
export function readHeader(headers: UpstreamHeaders, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== lower) continue;
    const value = headers[key];
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** Seconds to wait, whole and at least 1, from `retry-after-ms`, `retry-after` (seconds or an HTTP date), or "try again in 1.4s" in the message. */
export function parseRetryAfter(headers: UpstreamHeaders, message?: string | null): number | undefined {
  const ms = Number.parseFloat(readHeader(headers, 'retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return wholeSeconds(ms / 1000);
  const header = readHeader(headers, 'retry-after')?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return wholeSeconds(Number(header));
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return wholeSeconds(Math.max(0, (date - Date.now()) / 1000));
  }
  // OpenAI's rate-limit messages say "Please try again in 1.4s" (or "20ms", "6m0s") without a header.
  const hint = message?.match(/try again in ((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)/i)?.[1];
  if (hint) {
    let seconds = 0;
    for (const [, amount, unit] of hint.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
      seconds += Number(amount) * (unit === 'ms' ? 0.001 : unit === 's' ? 1 : unit === 'm' ? 60 : 3600);
    }
    return wholeSeconds(seconds);
  }
  return undefined;
}

function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

/** Upstream text passed to clients is bounded: some servers put whole stack traces in it. */
export function clipMessage(message: string): string {
  return message.length > 1000 ? `${message.slice(0, 1000)}…` : message;
}

export function convertOpenAIError(status: number, body: string, headers: UpstreamHeaders): UpstreamFailure {
  const error = parseOpenAIErrorBody(body);
  const upstreamMessage = error?.message ? clipMessage(error.message) : undefined;
  const code = error?.code == null ? undefined : String(error.code);
  const failure = (kind: UpstreamFailure['kind'], message: string): UpstreamFailure => {
    const result: UpstreamFailure = { kind, message };
    const retryAfter = parseRetryAfter(headers, error?.message);
    if (retryAfter !== undefined && (kind === 'rate_limited' || kind === 'overloaded')) result.retryAfter = retryAfter;
    const requestId = readHeader(headers, 'x-request-id');
    if (requestId) result.upstreamRequestId = requestId;
    return result;
  };

  if (status === 429) {
    // insufficient_quota is also a 429, but it means the gateway's own OpenAI account is out of credit:
    // the client retrying cannot help, so it is our server error, not their rate limit.
    if (code === 'insufficient_quota') return failure('server_error', 'The upstream provider account has run out of quota');
    return failure('rate_limited', 'The upstream provider is rate limiting requests; retry later');
  }
  if (status === 401 || status === 403) return failure('auth', 'The upstream provider rejected the gateway credentials');
  if (status === 404) return failure('not_found', upstreamMessage ?? 'The upstream provider does not know this model');
  if (status >= 400 && status < 500) {
    if (code === 'context_length_exceeded') return failure('context_length_exceeded', upstreamMessage ?? 'The prompt is longer than the model context');
    return failure('bad_request', upstreamMessage ?? `The upstream provider rejected the request (HTTP ${status})`);
  }
  // 529 is the "overloaded" status Anthropic made common; some OpenAI-compatible proxies copy it.
  if (status === 503 || status === 529) return failure('overloaded', 'The upstream provider is overloaded; retry later');
  return failure('server_error', `The upstream provider failed (HTTP ${status})`);
}

/** The `{"error":{…}}` chunk of a stream already under way. */
export function convertOpenAIStreamError(error: OpenAIError): MidStreamError {
  const tags = [error.code, error.type].filter((v) => v != null).map(String);
  const message = error.message ? clipMessage(error.message) : undefined;
  if (tags.includes('context_length_exceeded')) return { code: 'context_length_exceeded', message: message ?? 'The prompt is longer than the model context' };
  if (tags.some((t) => t === 'content_filter' || t === 'content_policy_violation')) {
    return { code: 'content_filter', message: message ?? 'The upstream provider stopped the response for its content' };
  }
  if (tags.some((t) => t === 'rate_limit_exceeded' || t === 'rate_limit_error' || t === '429')) {
    return { code: 'rate_limit', message: 'The upstream provider is rate limiting requests; retry later' };
  }
  // The provider's own words, as a client reading the stream would want them ("The server had an error
  // while processing your request…"); a rate-limit message is not passed on, as it names the operator's organization.
  return { code: 'server_error', message: message ?? 'The upstream provider failed while streaming the response' };
}
