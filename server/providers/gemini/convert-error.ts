import type { MidStreamError, UpstreamFailure } from '../types';
import { googleRpcErrorSchema, type GoogleRpcError } from './generate-content-response';

type Headers = Record<string, string | string[] | undefined>;

// Gemini's way of saying the prompt is too long: HTTP 400 INVALID_ARGUMENT with
// "The input token count (1203456) exceeds the maximum number of tokens allowed (1048576)."
const TOKEN_LIMIT = /exceeds the maximum number of tokens/i;

/** Classify a non-2xx answer from generateContent / streamGenerateContent (a google.rpc.Status body). */
export function convertGeminiError(status: number, body: string, headers: Headers): UpstreamFailure {
  const error = parseRpcError(body);
  const message = redactKeys(error?.message || body.slice(0, 500) || `Gemini answered HTTP ${status}`);
  const rpcStatus = error?.status;

  if (status === 429 || rpcStatus === 'RESOURCE_EXHAUSTED') {
    const retryAfter = retryDelaySeconds(error) ?? retryAfterHeader(headers);
    return { kind: 'rate_limited', message, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }
  if (status === 400 || rpcStatus === 'INVALID_ARGUMENT' || rpcStatus === 'FAILED_PRECONDITION') {
    if (TOKEN_LIMIT.test(message)) return { kind: 'context_length_exceeded', message };
    // A wrong key is a 400 INVALID_ARGUMENT on this API, recognisable only by its ErrorInfo reason.
    if (errorInfoReason(error) === 'API_KEY_INVALID') return { kind: 'auth', message };
    return { kind: 'bad_request', message };
  }
  if (status === 401 || status === 403 || rpcStatus === 'UNAUTHENTICATED' || rpcStatus === 'PERMISSION_DENIED') {
    return { kind: 'auth', message };
  }
  if (status === 404 || rpcStatus === 'NOT_FOUND') return { kind: 'not_found', message };
  if (status === 503 || rpcStatus === 'UNAVAILABLE') return { kind: 'overloaded', message };
  if (status >= 500) return { kind: 'server_error', message };
  return { kind: 'bad_request', message };
}

/** An `{"error":{…}}` data line inside a 200 stream. */
export function convertGeminiStreamError(error: GoogleRpcError): MidStreamError {
  const message = redactKeys(error.message || 'Gemini reported an error mid-stream');
  if (error.status === 'RESOURCE_EXHAUSTED' || error.code === 429) return { code: 'rate_limit', message };
  if (TOKEN_LIMIT.test(message)) return { code: 'context_length_exceeded', message };
  // INTERNAL, UNAVAILABLE, DEADLINE_EXCEEDED and anything else: the upstream failed, not the client.
  return { code: 'server_error', message };
}

function parseRpcError(body: string): GoogleRpcError | undefined {
  try {
    const parsed = googleRpcErrorSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined; // an HTML page from a proxy, an empty body…
  }
}

function detailOfType(error: GoogleRpcError | undefined, type: string): Record<string, unknown> | undefined {
  return error?.details?.find((d) => d['@type'] === `type.googleapis.com/${type}`);
}

function errorInfoReason(error: GoogleRpcError | undefined): unknown {
  return detailOfType(error, 'google.rpc.ErrorInfo')?.reason;
}

/** google.rpc.RetryInfo.retryDelay is a protobuf Duration in JSON: "17s", "34.4s". */
function retryDelaySeconds(error: GoogleRpcError | undefined): number | undefined {
  const delay = detailOfType(error, 'google.rpc.RetryInfo')?.retryDelay;
  const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
  return match ? Math.ceil(Number(match[1])) : undefined;
}

/** Retry-After as delta-seconds or an HTTP date. */
function retryAfterHeader(headers: Headers): number | undefined {
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
  const value = Array.isArray(entry) ? entry[0] : entry;
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

// Google echoes the caller's key in some messages ("Consumer 'api_key:AIza…' has been suspended"). The key is
// the operator's, and the message may reach an end user, so it never leaves the gateway.
function redactKeys(message: string): string {
  return message.replace(/api_key:[^'"\s]+/g, 'api_key:[redacted]').replace(/AIza[0-9A-Za-z_-]{20,}/g, '[redacted]');
}
