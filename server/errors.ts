// One error vocabulary for every transport. Services throw AppError(code, message); each edge translates
// it: REST → `{ error: { code, message, metadata } }` with the status below, tRPC → errorFormatter,
// a stream already under way → an SSE chunk with finish_reason "error" (see server/gateway).
import { processLogger } from '@/server/observability/logger';
import { formatZodIssues, isZodError } from '@/server/validation/zod-error';

export const ERROR_STATUS = {
  bad_request: 400,
  context_length_exceeded: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorMetadata = Record<string, unknown>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly metadata: ErrorMetadata;
  /** Extra response headers, e.g. Retry-After on a 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, metadata: ErrorMetadata = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.metadata = metadata;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError || (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AppError' && typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code in ERROR_STATUS);
}

export interface ErrorBody {
  error: { code: number | string; message: string; metadata: ErrorMetadata };
}

/**
 * The spec's error body. `error.code` is the HTTP status for plain HTTP errors (as OpenRouter does) and
 * the string identifier where the identifier says more than the status (context_length_exceeded).
 */
export function toErrorBody(err: unknown, requestId?: string): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (isAppError(err)) {
    const status = ERROR_STATUS[err.code];
    const code: number | string = err.code === 'context_length_exceeded' ? err.code : status;
    return {
      status,
      headers: err.headers ?? {},
      body: { error: { code, message: err.message, metadata: { ...err.metadata, error_type: err.code, ...(requestId ? { request_id: requestId } : {}) } } },
    };
  }
  // A zod schema inside a service refused its input: that is the caller's 400, with what was wrong.
  if (isZodError(err)) return toErrorBody(badRequestFromZod(err), requestId);
  // Unknown failures leak nothing: no message, no stack, no SQL.
  return {
    status: 500,
    headers: {},
    body: { error: { code: 500, message: 'Internal server error', metadata: { error_type: 'internal', ...(requestId ? { request_id: requestId } : {}) } } },
  };
}

/** A zod failure as the caller's 400 (the one formatting: server/validation/zod-error.ts). */
export function badRequestFromZod(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): AppError {
  const { message, issues } = formatZodIssues(error.issues);
  return new AppError('bad_request', message, { issues });
}

/**
 * The spec's reply for a failure at an edge, and the ONE place that decides what is logged: a 5xx caused by
 * something other than an AppError (services and the gateway throw those on purpose, upstream failures
 * included) is a server fault, logged with the request id and never shown to the client. Every edge calls
 * this: REST routes, the node:http server, the chat handler, tRPC and the Next hand-off in server/main.ts.
 */
export function errorReply(err: unknown, requestId: string, where = 'request'): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const reply = toErrorBody(err, requestId);
  if (reply.status >= 500 && !isAppError(err)) processLogger().error({ request_id: requestId, where, err }, `${where} failed`);
  return reply;
}
