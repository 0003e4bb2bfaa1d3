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
  const failure = classify(status, body, headers);
  // Messages reach clients; the operator's Google Cloud project is none of their business.
  return { ...failure, message: withoutProjectIds(failure.message) };
}

function classify(status: number, body: string, headers: Headers): UpstreamFailure {
  if (isAnthropicErrorBody(body)) return convertAnthropicError(status, body, headers);
  const failure = convertGeminiError(status, unwrapArray(body), headers);
  // A model not enabled for the project (Model Garden) or not offered here: the endpoint's fault, not the
  // request's, and another endpoint may serve it (as Vertex's own 404 for an unknown model does).
  if (failure.kind === 'bad_request' && NOT_ENABLED_PATTERN.test(failure.message)) return { ...failure, kind: 'not_found' };
  // The Gemini converter's fallback names Gemini; on Vertex the upstream may as well be serving Claude.
  return failure.message.startsWith('Gemini answered HTTP') ? { ...failure, message: `Vertex AI answered HTTP ${status}` } : failure;
}

/**
 * Google's messages name the project (id or number) as `projects/acme/…`, "Project `acme`", "consumer
 * 'projects/123'", "resource project acme", "in project 123456": each becomes "…".
 */
export function withoutProjectIds(message: string): string {
  return message
    .replace(/\bprojects\/[^/\s`'"]+/gi, 'projects/…')
    .replace(/\b(project\s*)([`'"])[^`'"]*\2/gi, '$1$2…$2')
    .replace(/\b((?:resource|in|for)\s+project\s+)[a-z0-9][a-z0-9-]*[a-z0-9]/gi, '$1…')
    .replace(/([?&]project=)[^&\s#]+/gi, '$1…');
}

/** 400 FAILED_PRECONDITION "Project `…` is not allowed to use Publisher Model `projects/…/models/claude-…`". */
const NOT_ENABLED_PATTERN = /is not allowed to use Publisher Model/i;

/** Vertex sends some errors as a one-element JSON array, `[{"error": {…}}]`: the google.rpc.Status inside is read. */
function unwrapArray(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) && parsed.length === 1 ? JSON.stringify(parsed[0]) : body;
  } catch {
    return body;
  }
}

function isAnthropicErrorBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { type?: unknown; error?: { type?: unknown } };
    return parsed?.type === 'error' && typeof parsed.error?.type === 'string';
  } catch {
    return false;
  }
}
