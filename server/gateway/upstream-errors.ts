// A provider's non-2xx answer or network failure, as the AppError the client gets: our provider keys and
// the upstream's raw error bodies never leak. open-route.ts decides what to try next.
import { AppError } from '@/server/errors';
import type { CancelSignal } from '@/server/http/cancel-signal';
import type { UpstreamFailure } from '@/server/providers/types';
import type { UpstreamResponse } from './upstream-client';

export const RETRY = { attempts: 3, baseDelayMs: 250 };

function describeFailure(failure: UpstreamFailure, upstreamStatus: number, provider: string): ConstructorParameters<typeof AppError> {
  const meta = { provider, upstream_status: upstreamStatus, ...(failure.upstreamRequestId ? { upstream_request_id: failure.upstreamRequestId } : {}), ...(failure.reason ? { reason: failure.reason } : {}) };
  const msg = failure.message?.slice(0, 500) || 'no details';
  const retryAfter: Record<string, string> = failure.retryAfter ? { 'retry-after': String(Math.ceil(failure.retryAfter)) } : {};
  switch (failure.kind) {
    case 'rate_limited':
      return ['rate_limited', `The provider (${provider}) is rate limiting requests: ${msg}`, meta, retryAfter];
    case 'context_length_exceeded':
      return ['context_length_exceeded', `The input is longer than the model's context window: ${msg}`, meta];
    case 'bad_request':
      return ['bad_request', `The provider (${provider}) rejected the request: ${msg}`, meta];
    case 'auth':
      // The operator's provider credentials failed: not the caller's fault, and nothing of them is shown.
      return ['upstream_error', `The provider (${provider}) refused this server's credentials. The operator must check the provider API key.`, meta];
    case 'not_found':
      return ['upstream_error', `The provider (${provider}) does not know this model: ${msg}`, meta];
    case 'overloaded':
      return ['service_unavailable', `The provider (${provider}) is overloaded: ${msg}`, meta, retryAfter];
    default:
      return ['upstream_error', `The provider (${provider}) failed: ${msg}`, meta];
  }
}

/** A non-2xx upstream answer, as the AppError the client gets. */
export class UpstreamHttpError extends AppError {
  readonly failure: UpstreamFailure;
  readonly upstreamStatus: number;

  constructor(failure: UpstreamFailure, upstreamStatus: number, provider: string) {
    super(...describeFailure(failure, upstreamStatus, provider));
    this.failure = failure;
    this.upstreamStatus = upstreamStatus;
  }
}

export const headerRecord = (h: UpstreamResponse['headers']) => h as Record<string, string | string[] | undefined>;

export function networkError(err: unknown, provider: string): AppError {
  // An adapter's own refusal (authorize could not get a credential) says more than "could not reach".
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AppError('upstream_timeout', `The provider (${provider}) did not answer in time`, { provider, cause: code });
  }
  return new AppError('upstream_error', `Could not reach the provider (${provider})`, { provider, cause: code || 'network_error' });
}

export const sleep = (ms: number, signal: CancelSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
