// Errors in Anthropic's shape (platform.claude.com/docs/en/api/errors):
// `{"type":"error","error":{"type":"invalid_request_error","message":"…"},"request_id":"…"}`. The HTTP
// status stays ours (errors.ts), so a 402 (no credit) is still a 402, typed `billing_error` as Anthropic's
// SDK types name it; Anthropic's SDKs pick their error class by status.
import { errorReply, type ErrorCode } from '@/server/errors';
import type { ErrorReplyOf } from '@/server/gateway/wire-format';
import type { MidStreamError } from '@/server/providers/types';

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

const TYPE_OF: Record<ErrorCode | 'internal', AnthropicErrorType> = {
  bad_request: 'invalid_request_error',
  context_length_exceeded: 'invalid_request_error',
  unauthorized: 'authentication_error',
  payment_required: 'billing_error',
  forbidden: 'permission_error',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  conflict: 'invalid_request_error',
  gone: 'not_found_error',
  payload_too_large: 'request_too_large',
  unsupported_media_type: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  internal: 'api_error',
  upstream_error: 'api_error',
  service_unavailable: 'overloaded_error',
  upstream_timeout: 'timeout_error',
};

/** The Anthropic error type of one of our error codes (the `error_type` errors.ts puts in metadata). */
export function anthropicErrorType(code: string): AnthropicErrorType {
  return TYPE_OF[code as ErrorCode] ?? 'api_error';
}

/**
 * Anthropic's own header for the request id: its SDKs read `request-id` (err.requestID, message._request_id),
 * not our x-request-id. The same id, on every Messages API response.
 */
export const requestIdHeaders = (requestId: string) => ({ 'request-id': requestId, 'x-request-id': requestId });

/** A refusal before anything was streamed (logged by errors.ts when it is a server fault). */
export function messagesErrorReply(err: unknown, requestId: string, where: string): ErrorReplyOf {
  const reply = errorReply(err, requestId, where);
  const { message, metadata } = reply.body.error;
  return {
    status: reply.status,
    headers: { ...reply.headers, ...requestIdHeaders(requestId) },
    body: { type: 'error', error: { type: anthropicErrorType(String(metadata.error_type)), message }, request_id: requestId },
  };
}

/** A failure after the stream began: the client may retry everything but a request that cannot fit. */
export function midStreamErrorType(err: MidStreamError): AnthropicErrorType {
  switch (err.code) {
    case 'rate_limit':
      return 'rate_limit_error';
    case 'context_length_exceeded':
    case 'content_filter':
      return 'invalid_request_error';
    default:
      return /overload/i.test(err.message) ? 'overloaded_error' : 'api_error';
  }
}
