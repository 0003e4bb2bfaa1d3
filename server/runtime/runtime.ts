// The gateway's runtime: everything the chat path keeps between requests, in one object per process.
// handleChat receives it; nothing on the chat path keeps state of its own at module level. In production
// the custom server (dist/server.js) and Next's server bundle are two copies of the code in one process:
// both take the one runtime from processRuntime() (process-runtime.ts), so there is one settlement queue to
// drain at shutdown, one admission batcher per key, one rate limit count. Tests build their own.
import { ModelCatalog } from '@/server/catalog/resolve-model';
import { KeyAdmissionBatcher } from '@/server/ledger/key-admission-batcher';
import { ReservationLeases } from '@/server/ledger/reservation-leases';
import { SettlementJournal } from '@/server/ledger/settlement-journal';
import { SettlementQueue } from '@/server/ledger/settlement-queue';
import { createProviderRegistry, type ProviderRegistry } from '@/server/providers/registry';
import { WarmKeys } from '@/server/gateway/early-dispatch';
import { RateLimiter } from '@/server/gateway/rate-limit';
import { UpstreamPools } from '@/server/gateway/upstream-client';

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
  /** The model catalog, cached for 30 s, so admission resolves a model without a database round trip (catalog/resolve-model.ts). */
  readonly catalog: ModelCatalog;
  /** Per-credential request rate limit (gateway/rate-limit.ts). */
  readonly rateLimiter: RateLimiter;
  /** Provider adapters and their configuration, from the environment at creation (providers/registry.ts). */
  readonly providers: ProviderRegistry;
  /** Keep-alive connection pools to the providers (gateway/upstream-client.ts). */
  readonly upstream: UpstreamPools;
  /** A stream that has written nothing for this long gets an SSE comment (proxies close idle streams). */
  readonly streamKeepAliveMs: number;
  /**
   * Shutdown, once the server has stopped taking requests: writes every queued settlement (then removes
   * the journal file if nothing in it is left unsettled), stops renewing leases, then closes the provider
   * connections and the rate limiter's Redis connection (a later request would open them again).
   */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  providers?: ProviderRegistry;
  /** Requests per rolling minute per credential; default 600 (processRuntime passes RATE_LIMIT_RPM). */
  rateLimitRpm?: number;
  /** Redis for the rate limiter: a URL, null for memory; default REDIS_URL. */
  redisUrl?: string | null;
  streamKeepAliveMs?: number;
  /** The settlement journal's directory; default none (processRuntime passes SETTLEMENT_JOURNAL_DIR). */
  settlementJournalDir?: string | null;
  /** Reservation lease; default 90 s (processRuntime passes RESERVATION_LEASE_MS). */
  reservationLeaseMs?: number;
}

export function createRuntime(options: RuntimeOptions = {}): Runtime {
  const settlements = new SettlementQueue();
  const rateLimiter = new RateLimiter(options.rateLimitRpm ?? 600, options.redisUrl);
  const upstream = new UpstreamPools();
  const journal = options.settlementJournalDir ? new SettlementJournal(options.settlementJournalDir) : null;
  const leases = new ReservationLeases(options.reservationLeaseMs);
  return {
    settlements,
    journal,
    leases,
    catalog: new ModelCatalog(),
    keyAdmissions: new KeyAdmissionBatcher(),
    warmKeys: new WarmKeys(),
    rateLimiter,
    providers: options.providers ?? createProviderRegistry(),
    upstream,
    streamKeepAliveMs: options.streamKeepAliveMs ?? 10_000,
    async close() {
      await settlements.drain();
      leases.stop();
      journal?.close();
      await Promise.all([upstream.close(), rateLimiter.close()]);
    },
  };
}
