// The benchmark's load tools: bench/load.mjs (open and closed loop, ABBA rounds), wrk (saturation, closed loop)
// and an open-loop rate ladder when wrk is missing. Each writes its output into the results folder. Used by
// scripts/bench.mjs.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cpuMs, run } from './processes.mjs';

const SWEEP_RATES = [200, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6000];
/** A sweep step passes when ≥ 99 % of the offered rate is served, without errors, and p99 stays under this (no runaway queue). */
const SWEEP_P99_MS = 250;

export const errCount = (s) => Object.values(s.err ?? {}).reduce((a, b) => a + b, 0) + (s.shed ?? 0);

/** Runs bench/load.mjs on CPU 0 and returns its JSON (a noisy phase is redone once, unless args say otherwise). */
export async function load(out, label, args, file) {
  const json = path.join(out, file);
  const r = await run(process.execPath, ['bench/load.mjs', '--noise-retries', '1', ...args, '--label', label, '--json', json], { cpu: 0, log: path.join(out, 'load.log') });
  if (r.code !== 0 || !existsSync(json)) throw new Error(`load.mjs (${label}) failed with code ${r.code}`);
  return JSON.parse(readFileSync(json, 'utf8'));
}

/** wrk -t1 -c64 for `secs` after a 2 s warm-up: successful responses per second, latency, server CPU. */
/** @param cpu where wrk runs (default CPU 0 when pinning; null: anywhere) */
export async function wrk(out, name, url, model, headers, secs, server, { cpu = 0, threads = 1 } = {}) {
  const env = { ...process.env, WRK_MODEL: model, WRK_HEADERS: headers };
  const args = [`-t${threads}`, '-c64', '--latency', '-s', 'bench/wrk-post.lua', url];
  await run('wrk', ['-d2s', ...args], { env, quiet: true, cpu }); // warm-up
  const cpu0 = server ? cpuMs(server.child.pid) : NaN;
  const t0 = performance.now();
  const r = await run('wrk', [`-d${secs}s`, ...args], { env, quiet: true, cpu, log: path.join(out, `${server?.db.kind ?? 'mock'}-wrk-${name}.txt`) });
  const el = (performance.now() - t0) / 1000;
  const text = r.out;
  const num = (re) => {
    const m = re.exec(text);
    return m ? +m[1] : 0;
  };
  const ms = (re) => {
    const m = re.exec(text);
    if (!m) return NaN;
    const v = parseFloat(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const total = num(/(\d+) requests in/);
  const non2xx = num(/Non-2xx or 3xx responses: (\d+)/);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const sockErr = sock ? sock.slice(1).reduce((a, b) => a + +b, 0) : 0;
  const rps = num(/Requests\/sec:\s+([\d.]+)/);
  const res = {
    tool: `wrk -t${threads} -c64`,
    rps: total ? (rps * (total - non2xx)) / total : 0, // successful responses per second
    rawRps: rps,
    total,
    errors: non2xx + sockErr,
    p50: ms(/\s50%\s+([\d.]+)(us|ms|s)/),
    p99: ms(/\s99%\s+([\d.]+)(us|ms|s)/),
    serverCpuPct: server ? (cpuMs(server.child.pid) - cpu0) / (el * 10) : undefined,
  };
  console.log(`  saturation ${name.padEnd(12)} ${res.rps.toFixed(0)} req/s ok (wrk ${res.rawRps.toFixed(0)} req/s, ${res.errors} errors), p50 ${res.p50} ms, p99 ${res.p99} ms${server ? `, server CPU ${res.serverCpuPct.toFixed(0)}%` : ''}`);
  return res;
}

/** Without wrk: the highest open-loop rate served in full (see SWEEP_P99_MS). */
export async function sweep(out, name, target, watch, secs, kind) {
  let best = 0;
  let last = null;
  for (const rate of SWEEP_RATES) {
    let ok = false;
    for (let attempt = 1; attempt <= 2 && !ok; attempt++) {
      const j = await load(out, `sweep-${name}-${rate}`, ['--target', target, ...watch, '--rate', String(rate), '--duration', String(secs), '--warmup', '1', '--timeout', '10000', '--quiet'], `${kind}-sweep-${name}-${rate}-${attempt}.json`);
      const s = Object.values(j.targets)[0];
      ok = s.rps >= 0.99 * rate && s.lat.p99 < SWEEP_P99_MS && errCount(s) === 0;
      console.log(`  sweep ${name} offered ${rate}: served ${s.rps.toFixed(0)} req/s, p99 ${s.lat.p99.toFixed(2)} ms, errors ${errCount(s)}${ok ? '' : ' (miss)'}`);
      if (ok) last = { rate, p50: s.lat.p50, p99: s.lat.p99, serverCpuPct: s.watch.switchboard?.cpuPct };
    }
    if (!ok) break;
    best = rate;
  }
  return { tool: `open-loop sweep (highest rate with ≥ 99 % served, p99 < ${SWEEP_P99_MS} ms, no errors)`, rps: best, errors: 0, p50: last?.p50, p99: last?.p99, serverCpuPct: last?.serverCpuPct };
}

/** The non-streaming figures of one load.mjs run (direct and through Switchboard, ABBA). */
export function nonStreamResult(j) {
  const d = j.targets.direct;
  const s = j.targets.switchboard;
  return {
    direct: { p50: d.lat.p50, p99: d.lat.p99, rps: d.rps, errors: errCount(d) },
    switchboard: { p50: s.lat.p50, p99: s.lat.p99, coP99: s.co.p99, rps: s.rps, errors: errCount(s), ok: s.ok, cpuUsPerReq: s.watch.switchboard?.cpuUsPerReq, pgCpuUsPerReq: s.watch.postgres?.cpuUsPerReq },
    addedP50: s.lat.p50 - d.lat.p50,
    addedP99: s.lat.p99 - d.lat.p99,
    noisy: Math.max(d.maxForeignCpuPct ?? 0, s.maxForeignCpuPct ?? 0),
  };
}
