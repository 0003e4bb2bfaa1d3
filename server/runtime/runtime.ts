// The gateway's runtime: everything the chat path keeps between requests, in one object per process.
// handleChat receives it; nothing on the chat path keeps state of its own at module level. In production
// the custom server (dist/server.js) and Next's server bundle are two copies of the code in one process:
// both take the one runtime from processRuntime() (process-runtime.ts), so there is one settlement queue to
// drain at shutdown, one admission batcher per key, one rate limit count. Tests build their own.
import { env } from '@/server/env';
import { KeyAdmissionBatcher } from '@/server/ledger/key-admission-batcher';
import { ReservationLeases } from '@/server/ledger/reservation-leases';
import { SettlementJournal } from '@/server/ledger/settlement-journal';
import { SettlementQueue } from '@/server/ledger/settlement-queue';
import { EndpointStats } from '@/server/routing/endpoint-stats';
import { KeyHealth } from '@/server/routing/key-health';
import { RoutingState, type RoutingStateOptions } from '@/server/routing/routing-state';
import { AdmissionRevision } from '@/server/gateway/admission-revision';
import { WarmKeys } from '@/server/gateway/early-dispatch';
import { RateLimiter } from '@/server/gateway/rate-limit';
import { UpstreamPools } from '@/server/gateway/upstream-client';
import { createMetrics, disabledMetrics, type GatewayMetrics, type KeyHealthSample } from '@/server/observability/metrics';
import { createTracing, type Tracing, type TracingOptions } from '@/server/observability/tracing';

export interface Runtime {
  /** Settlements written in batches after the responses (ledger/settlement-queue.ts). */
  readonly settlements: SettlementQueue;
  /**
   * Each settlement appended before its usage is sent, replayed at start after a crash
   * (ledger/settlement-journal.ts); null when the runtime has no journal directory (tests).
   */
  readonly journal: SettlementJournal | null;
  /** This process's unsettled reservations, their expiry renewed in one statement per period (ledger/reservation-leases.ts). */
  readonly leases: ReservationLeases;
  /** API-key admissions grouped per key, one statement per group (ledger/key-admission-batcher.ts). */
  readonly keyAdmissions: KeyAdmissionBatcher;
  /** Keys admitted recently, for early dispatch (gateway/early-dispatch.ts). */
  readonly warmKeys: WarmKeys;
  /** The database's admission revision, read every second: when it moves, warmKeys are forgotten (gateway/admission-revision.ts). */
  readonly admissionRevision: AdmissionRevision;
  /**
   * Models, providers, endpoints and keys (routing/routing-state.ts): one in-memory table, rebuilt when the
   * configuration file or the operators' entries change, so routing costs no database round trip.
   */
  readonly routing: RoutingState;
  /** Provider keys' health: cooldowns after 429s, circuits after failures; shared over Redis when set (routing/key-health.ts). */
  readonly health: KeyHealth;
  /** This process's latency and throughput per endpoint, for `provider.sort` (routing/endpoint-stats.ts). */
  readonly endpointStats: EndpointStats;
  /** Per-credential request rate limit (gateway/rate-limit.ts). */
  readonly rateLimiter: RateLimiter;
  /** Keep-alive connection pools to the providers (gateway/upstream-client.ts). */
  readonly upstream: UpstreamPools;
  /** This process's Prometheus metrics, served at GET /metrics (observability/metrics.ts). */
  readonly metrics: GatewayMetrics;
  /**
   * OpenTelemetry traces (observability/tracing.ts): null when no OTLP endpoint is configured, and then the
   * request path creates no span at all. One provider per runtime, so one per process.
   */
  readonly tracing: Tracing | null;
  /** What a request served with the account's own provider key costs, in basis points of the list price (BYOK_FEE_PERCENT × 100). */
  readonly byokFeeBps: number;
  /** A stream that has written nothing for this long gets an SSE comment (proxies close idle streams). */
  readonly streamKeepAliveMs: number;
  /**
   * A stream's response headers wait at most this long for the route to open (gateway/run-streaming.ts):
   * refusals that come quicker keep their HTTP status; a slow upstream's client gets headers and keep-alives.
   */
  readonly streamHeadersAfterMs: number;
  /**
   * Shutdown, once the server has stopped taking requests: writes every queued settlement (then removes
   * the journal file if nothing in it is left unsettled), stops renewing leases, watching the routing
   * sources and reading the admission revision, then closes the provider connections and the Redis connections (a later request would open them again).
   */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Routing sources beyond the environment: a configuration file or inline configuration, database on/off. */
  routing?: Omit<RoutingStateOptions, 'env'>;
  /** Requests per rolling minute per credential; default 600 (processRuntime passes RATE_LIMIT_RPM). */
  rateLimitRpm?: number;
  /** Redis for the rate limiter and key health: a URL, null for memory; default REDIS_URL. */
  redisUrl?: string | null;
  /** Prefix of key health's Redis channel and hash (default `switchboard:key-health`); tests pass their own. */
  healthRedisPrefix?: string;
  streamKeepAliveMs?: number;
  /** Default 1 s. */
  streamHeadersAfterMs?: number;
  /** The settlement journal's directory; default none (processRuntime passes SETTLEMENT_JOURNAL_DIR). */
  settlementJournalDir?: string | null;
  /** Reservation lease; default 90 s (processRuntime passes RESERVATION_LEASE_MS). */
  reservationLeaseMs?: number;
  /** How long a settlement waits for others to join its batch; default 100 ms (tests lengthen it to hold settlements queued). */
  settlementIntervalMs?: number;
  /** Credit leases for busy accounts (ledger/credit-leases.ts); default CREDIT_LEASES (on). */
  creditLeases?: boolean;
  /** BYOK fee in basis points; default 0 (processRuntime passes BYOK_FEE_PERCENT × 100). */
  byokFeeBps?: number;
  /** prom-client's process metrics in the registry; default off (processRuntime turns them on). */
  processMetrics?: boolean;
  /** false: nothing is recorded and GET /metrics answers 404 (METRICS_ENABLED=0); default on. */
  metrics?: boolean;
  /** Where spans go (processRuntime passes the OTEL_* variables); default none: tracing off. */
  tracing?: TracingOptions | null;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const settlements = new SettlementQueue(options.settlementIntervalMs);
  const rateLimiter = new RateLimiter(options.rateLimitRpm ?? 600, options.redisUrl);
  const upstream = new UpstreamPools();
  const journal = options.settlementJournalDir ? new SettlementJournal(options.settlementJournalDir) : null;
  const leases = new ReservationLeases(options.reservationLeaseMs, options.creditLeases ?? env().CREDIT_LEASES);
  const routing = new RoutingState({ env: env(), ...options.routing });
  const health = new KeyHealth({ redisUrl: options.redisUrl === undefined ? env().REDIS_URL : options.redisUrl, redisKeyPrefix: options.healthRedisPrefix });
  const metrics =
    options.metrics === false
      ? disabledMetrics()
      : createMetrics({
          keyHealth: () => keyHealthSamples(routing, health),
          settlementQueueDepth: () => settlements.pending(),
          processMetrics: options.processMetrics,
        });
  const tracing = options.tracing ? createTracing(options.tracing) : null;
  const warmKeys = new WarmKeys(false);
  const admissionRevision = new AdmissionRevision(warmKeys);
  return {
    metrics,
    tracing,
    settlements,
    journal,
    leases,
    routing,
    health,
    endpointStats: new EndpointStats(),
    keyAdmissions: new KeyAdmissionBatcher(leases.credit, settlements),
    warmKeys,
    admissionRevision,
    rateLimiter,
    upstream,
    byokFeeBps: options.byokFeeBps ?? 0,
    streamKeepAliveMs: options.streamKeepAliveMs ?? 10_000,
    streamHeadersAfterMs: options.streamHeadersAfterMs ?? 1_000,
    async close() {
      await settlements.drain();
      leases.stop();
      // After the settlements: what the leases still hold goes back to the accounts.
      await leases.credit.close();
      journal?.close();
      routing.close();
      admissionRevision.close();
      // The last spans (those of the requests that just ended) are exported before the process exits.
      await Promise.all([upstream.close(), rateLimiter.close(), health.close(), tracing?.shutdown().catch(() => {})]);
    },
  };
}

/** Every operator key of the routing table (BYOK keys are the accounts' own, not listed) with its health now. */
function* keyHealthSamples(routing: RoutingState, health: KeyHealth): Generator<KeyHealthSample> {
  for (const provider of routing.table().providers.values()) {
    for (const key of provider.keys) {
      if (!key.byok) yield { provider: provider.id, key: key.id, healthy: health.view(key.ref).state === 'healthy' };
    }
  }
}
