// Scale-out on one host (issue 17): saturation with WORKERS=2 against one worker, on PostgreSQL. On a machine
// of 2 cores nothing is pinned in this phase (the workers, the mock, wrk and PostgreSQL share both cores, as
// they would on a host where Switchboard gets every core): the same wrk load against a server started with
// WORKERS=1, then with WORKERS=2. The figure to read is the ratio; the absolute numbers are lower than the
// pinned saturation phase's because the load generator now competes with the server.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { wrk } from './load-tools.mjs';
import { f } from './report.mjs';

/**
 * @param o.start (workers) => starts the server (unpinned) with WORKERS=workers, waits until it answers and
 *   returns the path of its log
 * @param o.stop () => stops it
 * @param o.target the load target through Switchboard (`name|url|model|headers`)
 */
export async function workersSaturation({ out, start, stop, target, secs }) {
  const [, url, model, headers] = target.split('|');
  const legs = [];
  console.log(`\n== postgres saturation, WORKERS=1 vs WORKERS=2 (wrk -t2 -c64, nothing pinned) ==`);
  for (const workers of [1, 2]) {
    const log = await start(workers);
    await everyWorkerReady(log, workers);
    await sleep(2_000); // warm enough
    const r = await wrk(out, `workers-${workers}`, url, model, headers, secs, null, { cpu: null, threads: 2 });
    legs.push({ workers, rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors });
    await stop();
  }
  const ratio = legs[1].rps / legs[0].rps;
  console.log(`  WORKERS=2 serves ${f(ratio, 2)}× what one worker serves (${f(legs[1].rps, 0)} vs ${f(legs[0].rps, 0)} req/s)`);
  return { legs, ratio };
}

/** Until the server's log says that `workers` processes listen ("… ready on http://…", one line each). */
async function everyWorkerReady(log, workers, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = (readFileSync(log, 'utf8').match(/ready on http/g) ?? []).length;
    if (ready >= workers) return;
    if (Date.now() > deadline) throw new Error(`${workers} workers not ready after ${timeoutMs / 1000} s (${ready} ready; see ${log})`);
    await sleep(200);
  }
}
