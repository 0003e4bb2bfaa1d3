// Bedrock's errors (API_runtime_Converse "Errors", and the ConverseStream exception events). The error type
// comes in the `x-amzn-errortype` header ("ValidationException:http://internal.amazon.com/…") and/or the
// body's `__type`; the body's `message` (or `Message`) is AWS's text, passed on.
import type { MidStreamError, UpstreamFailure } from '@/server/providers/types';

type Headers = Record<string, string | string[] | undefined>;

/** "Input is too long for requested model.", "prompt is too long: 208310 tokens > 200000 maximum", "too many input tokens". */
const CONTEXT_LENGTH_PATTERN = /too long|context (length|window|limit)|too many (input )?tokens|exceed(s)? (the )?(context|maximum)/i;

/**
 * A ValidationException (HTTP 400) that says the endpoint's model id cannot be served here, not that the
 * request is wrong: "The provided model identifier is invalid." (unknown id, or a model not offered in this
 * region) and "Invocation of model ID … with on-demand throughput isn’t supported. Retry your request with
 * the ID or ARN of an inference profile…". Like Anthropic's 404 for an unknown model, another endpoint may serve.
 */
const UNSERVED_MODEL_PATTERN = /model identifier is invalid|on-demand throughput isn.t supported/i;

/**
 * An AccessDeniedException (HTTP 403) about one model, not the credentials: "You don't have access to the
 * model with the specified model ID." (model access not granted in this account and region) or "Model access
 * is denied due to … AWS Marketplace actions …". The credentials serve other models: the key must not cool.
 */
const MODEL_ACCESS_PATTERN = /access to the model|model access is denied/i;

function header(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/** "ThrottlingException:http://…", "com.amazon.coral.service#ThrottlingException" → "ThrottlingException". */
export function errorTypeName(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const name = raw.split(':')[0]!.split('#').pop()!.trim();
  return name || undefined;
}

function parseBody(body: string): { type?: string; message?: string } {
  try {
    const parsed = JSON.parse(body) as { __type?: unknown; message?: unknown; Message?: unknown };
    const message = typeof parsed?.message === 'string' ? parsed.message : typeof parsed?.Message === 'string' ? parsed.Message : undefined;
    return { type: typeof parsed?.__type === 'string' ? errorTypeName(parsed.__type) : undefined, message };
  } catch {
    return {}; // a load balancer's page or an empty body: classify by status alone
  }
}

function classify(status: number, type: string | undefined, message: string): UpstreamFailure['kind'] {
  switch (type) {
    case 'ThrottlingException':
    case 'ServiceQuotaExceededException':
      return 'rate_limited';
    case 'AccessDeniedException':
      return MODEL_ACCESS_PATTERN.test(message) ? 'not_found' : 'auth';
    case 'UnrecognizedClientException':
    case 'InvalidSignatureException':
    case 'ExpiredTokenException':
    case 'IncompleteSignatureException':
      return 'auth';
    case 'ResourceNotFoundException':
      return 'not_found';
    case 'ValidationException':
      if (UNSERVED_MODEL_PATTERN.test(message)) return 'not_found';
      break;
    case 'ModelNotReadyException':
    case 'ServiceUnavailableException':
      return 'overloaded';
    case 'InternalServerException':
    case 'ModelErrorException':
    case 'ModelTimeoutException':
      return 'server_error';
  }
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 503) return 'overloaded';
  if (status >= 500 || status === 408 || status === 424) return 'server_error';
  if (CONTEXT_LENGTH_PATTERN.test(message)) return 'context_length_exceeded';
  return 'bad_request';
}

/** Classify a non-2xx answer from /converse or /converse-stream. */
export function convertError(status: number, body: string, headers: Headers): UpstreamFailure {
  const parsed = parseBody(body);
  const type = errorTypeName(header(headers, 'x-amzn-errortype')) ?? parsed.type;
  const message = parsed.message ?? `Bedrock returned HTTP ${status}${type ? ` (${type})` : ''}`;
  const failure: UpstreamFailure = { kind: classify(status, type, message), message };
  const retryAfter = Number(header(headers, 'retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) failure.retryAfter = Math.ceil(retryAfter);
  const requestId = header(headers, 'x-amzn-requestid');
  if (requestId) failure.upstreamRequestId = requestId;
  return failure;
}

/** An exception event inside a 200 ConverseStream (throttlingException, modelStreamErrorException…). */
export function convertStreamError(type: string, message: string | undefined): MidStreamError {
  const text = message ?? `Bedrock reported ${type} mid-stream`;
  if (/^throttling|quota/i.test(type)) return { code: 'rate_limit', message: text };
  if (/^validation/i.test(type) && CONTEXT_LENGTH_PATTERN.test(text)) return { code: 'context_length_exceeded', message: text };
  return { code: 'server_error', message: text };
}
