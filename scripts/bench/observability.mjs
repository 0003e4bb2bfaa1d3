// What metrics and request logs cost on the chat path (issue 17: ≤ 5 % of its CPU per request): the same
// non-streaming load through Switchboard with both on (the default: LOG_LEVEL=info, one JSON line per
// request; Prometheus metrics recorded per generation) and both off (LOG_LEVEL=silent, METRICS_ENABLED=0),
// each leg on a freshly started server, in ABBAAB order so drift on a shared machine falls on both sides. A fresh
// server spends its first seconds compiling (JIT) and loading Next's pages, which swamps a few µs per request, so
// each leg warms up longer than the other phases before its CPU is counted.
// Traces stay off in both (no OTEL_EXPORTER_OTLP_ENDPOINT), as they are by default.
import { errCount, load } from './load-tools.mjs';
import { f } from './report.mjs';

/** The server's environment with metrics and request logs off. */
export const OBSERVABILITY_OFF_ENV = { LOG_LEVEL: 'silent', METRICS_ENABLED: '0' };
const OBSERVABILITY_ON_ENV = { LOG_LEVEL: 'info', METRICS_ENABLED: '1' };

/** BENCH_OBSERVABILITY=off runs every other phase with metrics and request logs off too (default on). */
export function observabilityMode() {
  const mode = (process.env.BENCH_OBSERVABILITY ?? 'on').toLowerCase();
  if (mode !== 'on' && mode !== 'off') throw new Error(`BENCH_OBSERVABILITY must be on or off (got "${mode}")`);
  return mode;
}

/**
 * @param o.env the server's environment object (changed per leg, restored at the end)
 * @param o.restart stops the server and starts it again with `o.env`
 * @param o.target the load target through Switchboard (named `switchboard`, as the watched server process)
 * @param o.watch () => the --watch arguments for the server process now running
 */
export async function observabilityCost({ out, kind, env, restart, target, watch, rate, duration, warmup, quick }) {
  const base = { LOG_LEVEL: env.LOG_LEVEL, METRICS_ENABLED: env.METRICS_ENABLED };
  const order = quick ? ['off', 'on'] : ['off', 'on', 'on', 'off', 'off', 'on'];
  const legs = [];
  console.log(`\n== ${kind} metrics + request logs: CPU per request, on vs off (${order.join(', ')}; ${rate} req/s non-streaming, fresh server per leg) ==`);
  try {
    for (const [i, mode] of order.entries()) {
      Object.assign(env, mode === 'on' ? OBSERVABILITY_ON_ENV : OBSERVABILITY_OFF_ENV);
      await restart();
      const j = await load(out, `${kind} observability ${mode} (leg ${i + 1})`, ['--target', target, ...watch(), '--rate', String(rate), '--duration', String(duration), '--warmup', String(warmup), '--rounds', '1'], `${kind}-observability-${i + 1}-${mode}.json`);
      const s = j.targets.switchboard;
      legs.push({ mode, cpuUsPerReq: s.watch.switchboard?.cpuUsPerReq, p50: s.lat.p50, p99: s.lat.p99, rps: s.rps, errors: errCount(s), noisy: s.maxForeignCpuPct ?? 0 });
    }
  } finally {
    for (const [k, v] of Object.entries(base)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
  }
  const mean = (mode) => {
    const xs = legs.filter((l) => l.mode === mode).map((l) => l.cpuUsPerReq);
    return xs.reduce((a, b) => a + b, 0) / xs.length;
  };
  const onUsPerReq = mean('on');
  const offUsPerReq = mean('off');
  const overheadPct = ((onUsPerReq - offUsPerReq) / offUsPerReq) * 100;
  const errors = legs.reduce((a, l) => a + l.errors, 0);
  console.log(`  metrics + request logs: ${f(onUsPerReq, 0)} µs/req on vs ${f(offUsPerReq, 0)} µs/req off: ${f(overheadPct, 1)} % of the chat path's CPU${errors ? ` (${errors} errors)` : ''}`);
  return { rate, legs, onUsPerReq, offUsPerReq, overheadPct, errors, noisy: Math.max(...legs.map((l) => l.noisy)) };
}
