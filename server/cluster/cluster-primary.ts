// WORKERS=N on PostgreSQL: this process becomes node:cluster's primary. It never opens the database nor loads
// Next: it forks N server processes (server/main.ts again, as workers) that share PORT (the primary accepts
// and hands connections to them in turn), restarts one that dies, answers the workers' requests for the
// host's metrics (observability/cluster-metrics.ts: prom-client's AggregatorRegistry sums every worker's series), and on SIGTERM/SIGINT passes
// the signal on and exits once every worker has drained (0 when they all exited 0).
//
// The first worker starts alone, so migrations and seeding run once; the others follow when it listens. A
// worker that dies before any worker listened is a start-up failure (bad database URL, a broken routing
// configuration…): the primary stops and exits 1, as a single process would. Later deaths are restarted,
// after a pause that grows while a worker keeps dying young (up to 30 s).
import cluster, { type Worker } from 'node:cluster';
import { HostMetricsCollector } from '@/server/observability/cluster-metrics';

export interface ClusterOptions {
  workers: number;
  /** SHUTDOWN_GRACE_S: the workers' drain; the primary waits that long plus a margin, then kills. */
  graceMs: number;
  log?: (line: string) => void;
}

interface Slot {
  worker: Worker;
  startedAt: number;
  /** Consecutive deaths within YOUNG_MS of starting. */
  youngDeaths: number;
}

const YOUNG_MS = 30_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** After the grace, what the workers get to flush settlements and close the database before they are killed. */
const FLUSH_MARGIN_MS = 20_000;

export function runClusterPrimary(o: ClusterOptions): void {
  const log = o.log ?? ((line: string) => console.log(line));
  const metrics = new HostMetricsCollector();
  const slots = new Map<number, Slot>();
  /** Exit codes of the workers that stopped after SIGTERM/SIGINT. */
  const exitCodes: number[] = [];
  let listened = false;
  let stopping = false;

  const fork = (n: number, youngDeaths = 0) => {
    const worker = cluster.fork({ SWITCHBOARD_WORKER: String(n) });
    slots.set(n, { worker, startedAt: Date.now(), youngDeaths });
    metrics.attach(worker);
    worker.once('listening', () => {
      if (listened) return;
      listened = true;
      for (let i = 2; i <= o.workers; i++) fork(i); // the first one migrated and seeded: the rest may start
    });
    worker.once('exit', (code, signal) => {
      if (stopping) {
        exitCodes.push(code ?? 1); // how the workers ended the shutdown decides the primary's exit code
        return maybeDone();
      }
      const slot = slots.get(n)!;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!listened) {
        log(`Switchboard: worker ${n} (pid ${worker.process.pid}) exited (${how}) before the server started; stopping.`);
        stopping = true;
        for (const s of slots.values()) if (s.worker !== worker) s.worker.process.kill('SIGTERM');
        process.exitCode = 1;
        return maybeDone();
      }
      const young = Date.now() - slot.startedAt < YOUNG_MS ? slot.youngDeaths + 1 : 0;
      const delay = young === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** (young - 1));
      log(`Switchboard: worker ${n} (pid ${worker.process.pid}) exited (${how}); starting another${delay ? ` in ${delay / 1000}s` : ''}`);
      setTimeout(() => {
        if (!stopping) fork(n, young);
      }, delay).unref();
    });
  };

  const living = () => [...slots.values()].filter((s) => !s.worker.isDead());
  const maybeDone = () => {
    if (!stopping || living().length > 0) return;
    process.exit(process.exitCode ?? (exitCodes.every((c) => c === 0) ? 0 : 1));
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`Switchboard: ${signal}, stopping ${living().length} worker(s)…`);
    // With SIGINT from a terminal the workers got it too; a second one changes nothing for them.
    for (const s of living()) s.worker.process.kill(signal);
    setTimeout(() => {
      const left = living();
      if (left.length === 0) return;
      log(`Switchboard: ${left.length} worker(s) still running ${(o.graceMs + FLUSH_MARGIN_MS) / 1000}s after ${signal}; killing them`);
      for (const s of left) s.worker.process.kill('SIGKILL');
      process.exitCode = 1;
    }, o.graceMs + FLUSH_MARGIN_MS).unref();
    maybeDone();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log(`Switchboard: starting ${o.workers} workers (WORKERS=${o.workers}) on one port`);
  fork(1);
}
