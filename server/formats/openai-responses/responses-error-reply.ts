// Errors before the stream, in OpenAI's shape: {"error": {"message", "type", "param", "code"}} with the HTTP
// status of our vocabulary (errors.ts), which also decides what is logged (a 5xx that is not an AppError).
import { type ErrorCode, errorReply } from '@/server/errors';
import type { ErrorReplyOf } from '@/server/gateway/wire-format';

/** OpenAI's error types (platform.openai.com/docs/guides/error-codes) for our codes. */
const TYPE: Partial<Record<ErrorCode, string>> = {
  unauthorized: 'authentication_error',
  payment_required: 'insufficient_quota',
  forbidden: 'permission_error',
  not_found: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  internal: 'server_error',
  upstream_error: 'server_error',
  service_unavailable: 'server_error',
  upstream_timeout: 'server_error',
};

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function responsesErrorReply(err: unknown, requestId: string, where = 'request'): ErrorReplyOf & { body: OpenAIErrorBody } {
  const reply = errorReply(err, requestId, where);
  const { message, metadata } = reply.body.error;
  const code = String(metadata.error_type ?? 'internal') as ErrorCode;
  const issues = metadata.issues as { path?: string }[] | undefined;
  const param = typeof metadata.param === 'string' ? metadata.param : issues?.[0]?.path || null;
  return { status: reply.status, headers: reply.headers, body: { error: { message, type: TYPE[code] ?? 'invalid_request_error', param, code } } };
}
