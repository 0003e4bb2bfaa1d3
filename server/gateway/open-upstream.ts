// Calls the provider and returns its 2xx response, retrying transient failures before the first byte
// (bounded, with backoff) and never after. A non-2xx answer is classified by the adapter and turned into
// the AppError the client gets: our provider keys and the upstream's raw error bodies never leak.
import { AppError } from '@/server/errors';
import type { ProviderAdapter, UpstreamFailure, UpstreamRequest } from '@/server/providers/types';
import type { UpstreamPools, UpstreamResponse } from './upstream-client';

export const RETRY = { attempts: 3, baseDelayMs: 250 };

function describeFailure(failure: UpstreamFailure, upstreamStatus: number, provider: string): ConstructorParameters<typeof AppError> {
  const meta = { provider, upstream_status: upstreamStatus, ...(failure.upstreamRequestId ? { upstream_request_id: failure.upstreamRequestId } : {}) };
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

  get retryable(): boolean {
    return this.failure.kind === 'server_error' || this.failure.kind === 'overloaded';
  }
}

const headerRecord = (h: UpstreamResponse['headers']) => h as Record<string, string | string[] | undefined>;

function networkError(err: unknown, provider: string): AppError {
  const code = (err as { code?: string }).code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new AppError('upstream_timeout', `The provider (${provider}) did not answer in time`, { provider, cause: code });
  }
  return new AppError('upstream_error', `Could not reach the provider (${provider})`, { provider, cause: code || 'network_error' });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export async function openUpstream(pools: UpstreamPools, adapter: ProviderAdapter, request: UpstreamRequest, provider: string, signal: AbortSignal): Promise<UpstreamResponse> {
  let lastError: AppError | undefined;
  for (let attempt = 0; attempt < RETRY.attempts; attempt++) {
    if (attempt > 0) await sleep(RETRY.baseDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2), signal);
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    let res: UpstreamResponse;
    try {
      res = await pools.send(request, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      lastError = networkError(err, provider);
      continue;
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return res;
    const text = await res.body.text().catch(() => '');
    const failure = adapter.convertError(res.statusCode, text, headerRecord(res.headers));
    const error = new UpstreamHttpError(failure, res.statusCode, provider);
    if (!error.retryable) throw error;
    lastError = error;
  }
  throw lastError!;
}
