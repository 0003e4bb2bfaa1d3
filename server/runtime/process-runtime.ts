// The process's one runtime, kept on globalThis: in production the custom server (dist/server.js) and
// Next's server bundle are two copies of this module in one process, and a module-level variable would
// give each its own settlement queue, batcher and pools (shutdown would then drain one of two queues).
// Whichever copy asks first creates it; the other finds it here. Its objects come from that copy's code,
// so what crosses between the copies must not depend on class identity (errors are recognized by
// isAppError, which checks the name and code, not instanceof).
import { env } from '@/server/env';
import { tracingOptionsFromEnv } from '@/server/observability/tracing';
import { createRuntime, type Runtime } from './runtime';

const GLOBAL_KEY = Symbol.for('switchboard.runtime');
type GlobalWithRuntime = typeof globalThis & { [GLOBAL_KEY]?: Runtime };

/** The process-wide runtime, created on first use from the environment. */
export function processRuntime(): Runtime {
  const g = globalThis as GlobalWithRuntime;
  if (g[GLOBAL_KEY]) return g[GLOBAL_KEY];
  const e = env();
  return (g[GLOBAL_KEY] = createRuntime({
    settlementJournalDir: e.settlementJournalDir,
    reservationLeaseMs: e.RESERVATION_LEASE_MS,
    rateLimitRpm: e.RATE_LIMIT_RPM,
    byokFeeBps: Math.round(e.BYOK_FEE_PERCENT * 100),
    processMetrics: true,
    metrics: e.METRICS_ENABLED,
    tracing: tracingOptionsFromEnv(e),
  }));
}
