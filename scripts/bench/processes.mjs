// The benchmark's processes: children started (optionally pinned to a CPU with taskset), stopped, waited
// for, measured from /proc; the database moved off the server's CPU; clean-ups run at the end or on a signal.
// Used by scripts/bench.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Pin processes to CPUs (2+ cores, taskset available, BENCH_PIN not 0). */
export const PIN = process.env.BENCH_PIN !== '0' && os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
/** BENCH_PIN_PG=0: leave the database (PostgreSQL's backends, PGlite's thread) to the scheduler. */
export const PIN_PG = process.env.BENCH_PIN_PG !== '0';
const children = new Set();
export const cleanups = [];
let exiting = false;

export function pinned(cpu, cmd, args) {
  return PIN ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args];
}

/** @param cpu the CPU to pin it to (when pinning), or null for none */
export function startProcess(name, cpu, cmd, args, env, logFile) {
  const [c, a] = cpu === null ? [cmd, args] : pinned(cpu, cmd, args);
  const log = createWriteStream(logFile);
  const child = spawn(c, a, { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.exited.then(() => children.delete(child));
  child.label = name;
  children.add(child);
  return child;
}

export async function stopProcess(child, graceMs = 15_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.stopping = true;
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(t);
}

export async function cleanupAll() {
  for (const c of [...children]) await stopProcess(c, 5_000).catch(() => {});
  for (const f of cleanups.splice(0).reverse()) await f().catch((e) => console.error(`bench: cleanup failed: ${e.message}`));
}

/** On SIGINT/SIGTERM: stop every child and run the clean-ups, then exit. */
export function cleanUpOnSignals() {
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.on(sig, async () => {
      if (exiting) return;
      exiting = true;
      console.error(`\nbench: ${sig}, stopping…`);
      await cleanupAll();
      process.exit(130);
    });
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function waitHttp(url, child, timeoutMs, okFn = (r) => r.ok) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.label} exited (code ${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (okFn(r)) return r;
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000}s`);
}

export function rssKB(pid) {
  try {
    return +/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
  } catch {
    return NaN;
  }
}

export function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const p = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((+p[11]) + (+p[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Runs a command to completion, output teed to the console (unless quiet) and to a log file. */
export function run(cmd, args, { env = process.env, log, quiet = false, cpu = null } = {}) {
  const [c, a] = cpu === null ? [cmd, args] : pinned(cpu, cmd, args);
  return new Promise((resolve, reject) => {
    const child = spawn(c, a, { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    children.add(child);
    let out = '';
    let err = '';
    const file = log ? createWriteStream(log, { flags: 'a' }) : null;
    child.stdout.on('data', (d) => {
      out += d;
      file?.write(d);
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      err += d;
      file?.write(d);
      if (!quiet) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      file?.end();
      resolve({ code, out, err });
    });
  });
}

/** CPU used by every process on the machine over `ms`, in % of one core (nothing of ours runs yet). */
export async function busyOthers(ms) {
  const read = () => {
    const v = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3] + (v[4] || 0);
    return [v.reduce((a, b) => a + b, 0) - idle, v.reduce((a, b) => a + b, 0)];
  };
  const [b0, t0] = read();
  await sleep(ms);
  const [b1, t1] = read();
  return ((b1 - b0) / Math.max(1, t1 - t0)) * 100 * os.cpus().length;
}

// The gateway gets CPU 1 to itself: PostgreSQL backends serving the bench database are moved to CPU 0 with
// the mock and the load driver (as if the database ran on its own host), checked every 250 ms since the
// pool opens connections on demand. Only backends of this run's own database are touched.
export function pinPgBackends(dbName) {
  if (!PIN || !PIN_PG) return () => {};
  const pinned = new Set();
  const sweep = () => {
    const r = spawnSync('pgrep', ['-f', `postgres: .* ${dbName} `], { encoding: 'utf8' });
    for (const pid of (r.stdout ?? '').split('\n').filter(Boolean)) {
      if (pinned.has(pid)) continue;
      if (spawnSync('taskset', ['-pc', '0', pid], { stdio: 'ignore' }).status === 0) pinned.add(pid);
    }
  };
  sweep();
  const t = setInterval(sweep, 250);
  return () => clearInterval(t);
}

// Embedded PGlite runs on its own thread inside the server process (server/db/pglite-thread.ts). It gets CPU 0,
// like PostgreSQL's backends do, so both databases run beside the gateway's CPU, not on it (the one-core phase
// moves it to CPU 1, the server's, and back). The server records the thread's id in DATA_DIR/server.json.
export function pinDbThread(dataDir, cpu = 0) {
  if (!PIN || !PIN_PG) return '';
  let tid;
  try {
    tid = JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')).dbThreadId;
  } catch {
    return ', database thread unknown';
  }
  if (!tid) return ', database thread unknown';
  const ok = spawnSync('taskset', ['-pc', String(cpu), String(tid)], { stdio: 'ignore' }).status === 0;
  return `, database thread ${tid}${ok ? ` on CPU ${cpu}` : ' (could not pin)'}`;
}
