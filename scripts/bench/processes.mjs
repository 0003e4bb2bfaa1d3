// The benchmark's processes: children started (optionally pinned to a CPU with taskset), stopped, waited
// for, measured from /proc; clean-ups run at the end or on a signal. Used by scripts/bench.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Pin processes to CPUs (2+ cores, taskset available, BENCH_PIN not 0). */
export const PIN = process.env.BENCH_PIN !== '0' && os.cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
const children = new Set();
export const cleanups = [];
let exiting = false;

export function pinned(cpu, cmd, args) {
  return PIN ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args];
}

export function startProcess(name, cpu, cmd, args, env, logFile) {
  const [c, a] = pinned(cpu, cmd, args);
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
