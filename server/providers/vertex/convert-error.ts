import { convertError as convertAnthropicError } from '../anthropic/convert-error';
import { convertGeminiError } from '../gemini/convert-error';
import type { UpstreamFailure } from '../types';

type Headers = Record<string, string | string[] | undefined>;

/**
 * A non-2xx answer from Vertex AI. Vertex's own refusals (quota, auth, unknown model, bad path) are
 * google.rpc.Status bodies, `{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED"}}`, the
 * Gemini API's shape: 429/RESOURCE_EXHAUSTED → rate_limited, 401/403 → auth, 404 → not_found, 400 →
 * bad_request (or context_length_exceeded), 503/UNAVAILABLE → overloaded, other 5xx → server_error.
 * Errors from Claude itself come through rawPredict in Anthropic's shape (`{"type":"error","error":{"type":…}}`),
 * so the body decides, not the model: one request can meet either.
 */
export function convertVertexError(status: number, body: string, headers: Headers): UpstreamFailure {
  if (isAnthropicErrorBody(body)) return convertAnthropicError(status, body, headers);
  const failure = convertGeminiError(status, body, headers);
  // The Gemini converter's fallback names Gemini; on Vertex the upstream may as well be serving Claude.
  return failure.message.startsWith('Gemini answered HTTP') ? { ...failure, message: `Vertex AI answered HTTP ${status}` } : failure;
}

function isAnthropicErrorBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { type?: unknown; error?: { type?: unknown } };
    return parsed?.type === 'error' && typeof parsed.error?.type === 'string';
  } catch {
    return false;
  }
}
