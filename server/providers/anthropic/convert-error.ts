import type { MidStreamError, UpstreamFailure } from '@/server/providers/types';

type Headers = Record<string, string | string[] | undefined>;

/** Both "prompt is too long: 208310 tokens > 200000 maximum" and "input length and `max_tokens` exceed context limit: …". */
const CONTEXT_LENGTH_PATTERN = /prompt is too long|exceed(s)? context limit/i;

/** Anthropic's error body: `{"type":"error","error":{"type":"rate_limit_error","message":"…"},"request_id":"req_…"}`. */
function parseErrorBody(body: string): { type?: string; message?: string; requestId?: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; message?: unknown }; request_id?: unknown };
    return {
      type: typeof parsed?.error?.type === 'string' ? parsed.error.type : undefined,
      message: typeof parsed?.error?.message === 'string' ? parsed.error.message : undefined,
      requestId: typeof parsed?.request_id === 'string' ? parsed.request_id : undefined,
    };
  } catch {
    return {}; // a proxy's HTML page or an empty body: classify by status alone
  }
}

function header(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After is either delta-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed));
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function classify(status: number, type: string | undefined, message: string): UpstreamFailure['kind'] {
  if (status === 529 || type === 'overloaded_error') return 'overloaded';
  if (status === 429 || type === 'rate_limit_error') return 'rate_limited';
  // billing_error (402) is the operator's Anthropic account, not the caller's request: like a bad key.
  if (status === 401 || status === 403 || status === 402 || type === 'authentication_error' || type === 'permission_error') return 'auth';
  if (status === 404 || type === 'not_found_error') return 'not_found';
  if (status >= 500) return 'server_error';
  if (CONTEXT_LENGTH_PATTERN.test(message)) return 'context_length_exceeded';
  return 'bad_request';
}

/** Classify a non-2xx answer from POST /v1/messages. */
export function convertError(status: number, body: string, headers: Headers, now: number = Date.now()): UpstreamFailure {
  const parsed = parseErrorBody(body);
  const message = parsed.message ?? `Anthropic returned HTTP ${status}`;
  const kind = classify(status, parsed.type, message);
  const failure: UpstreamFailure = { kind, message };
  const retryAfter = parseRetryAfter(header(headers, 'retry-after'), now);
  if (retryAfter !== undefined) failure.retryAfter = retryAfter;
  const requestId = header(headers, 'request-id') ?? parsed.requestId;
  if (requestId) failure.upstreamRequestId = requestId;
  return failure;
}

/** The `error` event Anthropic may send after a 200 stream has begun. */
export function convertStreamError(error: { type?: string; message?: string }): MidStreamError {
  const message = error.message ?? 'Anthropic reported an error mid-stream';
  switch (error.type) {
    case 'rate_limit_error':
      return { code: 'rate_limit', message };
    case 'invalid_request_error':
      if (CONTEXT_LENGTH_PATTERN.test(message)) return { code: 'context_length_exceeded', message };
      return { code: 'server_error', message };
    default:
      // overloaded_error, api_error and anything new: the client did nothing wrong and may retry.
      return { code: 'server_error', message };
  }
}
