// Sends a request along its route and returns the first 2xx response, failing over only before the first
// byte reaches the client:
//   - 429 and 401/403 from a key: that key cools down (KeyHealth) and the next key of the same provider is tried;
//   - 5xx, overload, timeouts and connection errors: the key counts a failure and the next endpoint is tried;
//   - 404 from a provider (it does not know the upstream model): the next endpoint;
//   - client errors (400, context too long): answered at once, never retried elsewhere.
// With fewer endpoints than RETRY.attempts, transient failures are retried with backoff as before. Attempts
// and time are bounded; the final error's metadata lists every attempt (provider, key, status).
import { AppError } from '@/server/errors';
import type { CancelSignal } from '@/server/http/cancel-signal';
import type { ConvertContext, UpstreamRequest } from '@/server/providers/types';
import type { KeyHealth } from '@/server/routing/key-health';
import { orderKeys } from '@/server/routing/order-keys';
import type { RouteCandidate } from '@/server/routing/plan-route';
import { providerConfigFor, type RoutingKey } from '@/server/routing/routing-table';
import type { ChatRequest } from '@/server/providers/types';
import { refuseUnsupportedChoices } from './choices';
import { headerRecord, networkError, RETRY, sleep, UpstreamHttpError } from './upstream-errors';
import type { UpstreamPools, UpstreamResponse } from './upstream-client';
import type { GatewayMetrics } from '@/server/observability/metrics';
import type { RequestTrace } from '@/server/observability/request-trace';

/** At most this many upstream requests per client request, and no new one after FAILOVER_WINDOW_MS. */
export const FAILOVER = { maxAttempts: 6, windowMs: 30_000 };

export interface AttemptRecord {
  provider: string;
  key: string | null;
  model: string;
  /** The upstream's HTTP status; null for a connection error or timeout. */
  status: number | null;
}

/** One endpoint with one key, its request converted (null for a local adapter). */
export interface PreparedAttempt {
  candidate: RouteCandidate;
  key: RoutingKey | undefined;
  ctx: ConvertContext;
  request: UpstreamRequest | null;
}

export interface ServedRoute extends PreparedAttempt {
  /** Null for a local adapter (echo), which answers in-process. */
  response: UpstreamResponse | null;
  /** Every attempt, the serving one last. */
  attempts: AttemptRecord[];
}

/** What failover needs of a route, whatever the request: its endpoints, key affinity and the prepared first attempt. */
export interface RouteTargets {
  candidates: RouteCandidate[];
  /** Same value → same key while it is healthy (X-Task-ID, else prompt_cache_key, else user; with the model). */
  affinity?: string;
  /** The primary attempt, converted during admission (and maybe sent early). */
  first?: PreparedAttempt;
  /** The primary endpoint's keys in the order chosen during admission (`first.key` leads): tried first as they are. */
  firstKeys?: RoutingKey[];
  /** The request's server span when tracing is on: each attempt gets a child span, whose `traceparent` the upstream receives. */
  trace?: RequestTrace;
}

/** A chat route: the targets and the request every attempt converts. */
export interface Route extends RouteTargets {
  req: ChatRequest;
}

/** Builds one endpoint's and key's request (throws AppError for what the endpoint cannot carry). */
export type PrepareAttempt = (candidate: RouteCandidate, key: RoutingKey | undefined) => PreparedAttempt;

export interface RouteDeps {
  upstream: UpstreamPools;
  health: KeyHealth;
  /** Counts each failed attempt (switchboard_upstream_errors_total); the runtime's metrics. */
  metrics?: Pick<GatewayMetrics, 'upstreamError'>;
}

export function contextFor(candidate: RouteCandidate, key: RoutingKey | undefined): ConvertContext {
  const { model, endpoint } = candidate;
  return {
    model: {
      id: model.id,
      provider: endpoint.provider.id,
      upstreamModel: endpoint.upstreamModel,
      contextLength: endpoint.contextLength,
      maxOutputTokens: endpoint.maxOutputTokens,
      supportsReasoning: model.supportsReasoning,
      supportsImages: model.supportsImages,
    },
    config: providerConfigFor(endpoint.provider, key),
  };
}

/** Converts the request for one endpoint and key; throws the adapter's 400 for what it cannot map. */
export function prepareAttempt(candidate: RouteCandidate, key: RoutingKey | undefined, req: ChatRequest): PreparedAttempt {
  const ctx = contextFor(candidate, key);
  const provider = candidate.endpoint.provider;
  refuseUnsupportedChoices(req, provider.adapter, ctx);
  if (provider.adapter.local) {
    provider.adapter.local.check?.(req, ctx);
    return { candidate, key, ctx, request: null };
  }
  const request = provider.adapter.convertRequest(req, ctx);
  if (Object.keys(provider.headers).length > 0) request.headers = { ...request.headers, ...provider.headers };
  return { candidate, key, ctx, request };
}

/**
 * The keys of an endpoint in the order to try them (no side effect on health); `[undefined]` for a provider
 * that needs none. Admission orders the primary's once and the route's first pass uses that order, so the
 * request converted during admission is the one sent (a second draw could pick another key and convert again).
 */
export function keyOrder(candidate: RouteCandidate, health: KeyHealth, affinity?: string): (RoutingKey | undefined)[] {
  const keys = candidate.endpoint.provider.keys;
  return keys.length === 0 ? [undefined] : orderKeys(keys, (ref) => health.isUsable(ref), affinity);
}

export function openRoute(deps: RouteDeps, route: Route, signal: CancelSignal): Promise<ServedRoute> {
  return sendAlongRoute(deps, route, signal, (candidate, key) => prepareAttempt(candidate, key, route.req));
}

/**
 * The failover loop for any request shape (chat, embeddings): `prepare` builds each attempt's request. A
 * local adapter (echo) is returned unsent, with `prepare`'s attempt for it.
 */
export async function sendAlongRoute(deps: RouteDeps, route: RouteTargets, signal: CancelSignal, prepare: PrepareAttempt): Promise<ServedRoute> {
  const attempts: AttemptRecord[] = [];
  const started = Date.now();
  let lastError: AppError | undefined;
  let transient = false;
  // A key counts one failure per client request: retrying a lone endpoint must not open its circuit by itself.
  let failedKeys: Set<string> | undefined;
  const failed = (key: RoutingKey | undefined, reason: string) => {
    if (!key || key.byok) return;
    if (failedKeys?.has(key.ref)) deps.health.released(key.ref);
    else deps.health.failed(key.ref, reason);
    (failedKeys ??= new Set()).add(key.ref);
  };
  const within = () => attempts.length < FAILOVER.maxAttempts && Date.now() - started < FAILOVER.windowMs;

  for (let pass = 0; pass < RETRY.attempts && within(); pass++) {
    if (pass > 0) {
      // Another pass only for transient failures and while there were fewer attempts than a lone endpoint gets.
      if (!transient || attempts.length >= RETRY.attempts) break;
      await sleep(RETRY.baseDelayMs * 2 ** (pass - 1) * (0.75 + Math.random() / 2), signal);
    }
    const before = attempts.length;
    transient = false;
    candidates: for (const candidate of route.candidates) {
      const provider = candidate.endpoint.provider;
      if (provider.adapter.local) {
        // Served in process (echo): one attempt, which the usage record and GET /generation count.
        const prepared = prepare(candidate, undefined);
        attempts.push({ provider: provider.id, key: null, model: candidate.model.id, status: 200 });
        return { ...prepared, response: null, attempts };
      }
      const keys = pass === 0 && route.firstKeys && candidate === route.first?.candidate ? route.firstKeys : keyOrder(candidate, deps.health, route.affinity);
      for (const key of keys) {
        if (!within()) break candidates;
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        if (key && !key.byok && !deps.health.acquire(key.ref)) continue;
        const first = route.first;
        let prepared: PreparedAttempt;
        try {
          prepared = first && first.candidate === candidate && first.key === key ? first : prepare(candidate, key);
        } catch (err) {
          // This endpoint's format cannot carry the request (a fallback of another family): try the next one.
          if (key && !key.byok) deps.health.released(key.ref);
          if (err instanceof AppError) lastError ??= err;
          else throw err;
          continue candidates;
        }
        const record: AttemptRecord = { provider: provider.id, key: key?.id ?? null, model: candidate.model.id, status: null };
        attempts.push(record);
        const span = route.trace?.attempt({ provider: provider.id, key: record.key, model: record.model, url: prepared.request!.url });
        let res: UpstreamResponse;
        try {
          const request = provider.adapter.authorize ? await provider.adapter.authorize(prepared.request!, prepared.ctx, signal) : prepared.request!;
          // The one place upstream requests get their `traceparent`: after signing (it is not a signed header).
          res = await deps.upstream.send(span ? span.inject(request) : request, signal, provider.timeoutMs);
        } catch (err) {
          if (signal.aborted) {
            if (key && !key.byok) deps.health.released(key.ref);
            span?.end(null, 'aborted');
            throw err;
          }
          span?.end(null, 'network');
          lastError = networkError(err, provider.id);
          deps.metrics?.upstreamError(provider.id, 'network');
          failed(key, lastError.message);
          transient = true;
          continue candidates;
        }
        record.status = res.statusCode;
        // The serving attempt's span stays open until the request's ends (its answer is relayed meanwhile).
        span?.span.setAttribute('http.response.status_code', res.statusCode);
        if (res.statusCode >= 200 && res.statusCode < 300) {
          if (key && !key.byok) deps.health.succeeded(key.ref);
          return { ...prepared, response: res, attempts };
        }
        deps.metrics?.upstreamError(provider.id, String(res.statusCode));
        const text = await res.body.text().catch(() => '');
        const failure = provider.adapter.convertError(res.statusCode, text, headerRecord(res.headers));
        const error = new UpstreamHttpError(failure, res.statusCode, provider.id);
        span?.end(res.statusCode, failure.kind);
        lastError = error;
        switch (failure.kind) {
          case 'rate_limited':
            if (key && !key.byok) deps.health.rateLimited(key.ref, failure.retryAfter);
            continue; // another key of this provider
          case 'auth':
            // The account's own key (BYOK) refused: say so; never try the operator's key instead.
            if (key?.byok) throw withAttempts(byokRefused(error, provider.id, res.statusCode), attempts);
            if (key) deps.health.authFailed(key.ref, res.statusCode);
            continue;
          case 'server_error':
          case 'overloaded':
            failed(key, `${res.statusCode}: ${failure.message.slice(0, 200)}`);
            transient = true;
            continue candidates;
          case 'not_found':
            if (key && !key.byok) deps.health.succeeded(key.ref); // the key works; this endpoint's model name does not
            continue candidates;
          default:
            // The request itself is at fault: no other endpoint would take it either.
            if (key && !key.byok) deps.health.succeeded(key.ref);
            throw withAttempts(error, attempts);
        }
      }
    }
    if (attempts.length === before) break; // every key was cooling: nothing left to try
  }
  if (!lastError) throw allCooling(deps, route);
  throw withAttempts(lastError, attempts);
}

/** A provider refused the account's own key: a 403 the customer can act on, marked `byok`. */
function byokRefused(error: UpstreamHttpError, provider: string, status: number): AppError {
  return new AppError(
    'forbidden',
    `${provider} refused the key you saved for it (BYOK, HTTP ${status}): ${error.message} Update it with PUT …/provider-keys/${provider} or delete it to use the operator's keys.`,
    { ...error.metadata, byok: true, provider, upstream_status: status },
  );
}

/** The upstream requests a failed route made (from its error's metadata). */
export function attemptsIn(err: unknown): AttemptRecord[] {
  const list = (err as { metadata?: { attempts?: unknown } } | null)?.metadata?.attempts;
  return Array.isArray(list) ? (list as AttemptRecord[]) : [];
}

/** One attempt as a usage record keeps it: no key id, which is the operator's business, not the customer's. */
export type LoggedAttempt = Pick<AttemptRecord, 'provider' | 'model' | 'status'>;

/**
 * What a usage record keeps of a route's attempts: the list when it failed over (more than one), else
 * nothing, as a single attempt is the record's own provider and status.
 */
export function attemptLog(attempts: readonly AttemptRecord[]): LoggedAttempt[] | null {
  return attempts.length > 1 ? attempts.map(({ provider, model, status }) => ({ provider, model, status })) : null;
}

/** The error keeps its class (UpstreamHttpError's failure is read by the stream runner); its metadata, made for it, gains the attempts. */
function withAttempts(error: AppError, attempts: AttemptRecord[]): AppError {
  (error.metadata as Record<string, unknown>).attempts = attempts.map((a) => ({ ...a }));
  return error;
}

function allCooling(deps: RouteDeps, route: RouteTargets): AppError {
  const model = route.candidates[0]!.model.id;
  const refs = route.candidates.flatMap((c) => c.endpoint.provider.keys.map((k) => k.ref));
  const at = deps.health.nextAvailableAt(refs);
  const seconds = Math.max(1, Math.ceil(((at ?? Date.now() + 1000) - Date.now()) / 1000));
  return new AppError('service_unavailable', `Every provider key for ${model} is cooling down after errors or rate limits; retry in ${seconds} s.`, { model, attempts: [] }, { 'retry-after': String(seconds) });
}
