#!/usr/bin/env node
// `npm run bench`: what Switchboard adds on top of calling the provider directly, measured in one run.
//
// Starts the mock upstream (bench/mock-upstream.mjs) and, per database (PostgreSQL, embedded PGlite), the
// production server (node dist/server.js) pointed at it; creates a user, credit and API key with the CLI;
// then drives the same load straight at the mock ("direct") and through Switchboard ("switchboard", real
// key: auth, rate limit, balance check/reservation and metering all on), alternated ABBA (bench/load.mjs):
//   1. non-streaming, open loop at 200, 500 and 1,000 req/s: added p50/p99 latency
//   2. saturation: wrk closed loop (-c64) when installed, else an open-loop rate ladder
//   3. streaming, 200 concurrent streams: added time-to-first-token, per-chunk pass-through delay
//   4. memory: server RSS at rest vs peak with 1,000 concurrent open streams, per stream
// and prints a markdown table per database with PASS/FAIL against the targets below. Everything (JSON,
// tables, server logs) goes to bench/results/<timestamp>/. Loopback only; every phase is bounded.
//
// Env: BENCH_QUICK=1 (short phases, one round: a smoke run of ~2 min), BENCH_DB=postgres|pglite|both,
//      BENCH_DATABASE_URL or TEST_DATABASE_URL (admin connection; default postgresql://postgres@127.0.0.1:5432/postgres;
//      a fresh database is created and dropped), BENCH_SATURATION=wrk|sweep (default: wrk when installed),
//      BENCH_PIN=0 (do not pin processes to CPUs), BENCH_PIN_PG=0 (leave the database — PostgreSQL's backends, PGlite's thread — to the scheduler), BENCH_PROFILE=1 (the server writes V8 CPU profiles,
//      *.cpuprofile, into the results folder; summarise one with `node scripts/cpuprofile-top.mjs FILE`).
// CPU pinning (2+ cores, taskset available): the server on CPU 1; mock, load driver, wrk and the bench database's
// PostgreSQL backends (or embedded PGlite's thread) on CPU 0. Process handling is in scripts/bench/processes.mjs, the report in scripts/bench/report.mjs.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { busyOthers, cleanUpOnSignals, cleanupAll, cleanups, cpuMs, freePort, PIN, PIN_PG, pinDbThread, pinPgBackends, rssKB, run, sleep, startProcess, stopProcess, waitHttp } from './bench/processes.mjs';
import { f, table } from './bench/report.mjs';
import { SERVER_NODE_ARGS } from './server-node-args.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

// ---------------------------------------------------------------- configuration
const QUICK = process.env.BENCH_QUICK === '1';
const WHICH = (process.env.BENCH_DB ?? 'both').toLowerCase();
if (!['postgres', 'pglite', 'both'].includes(WHICH)) fail(`BENCH_DB must be postgres, pglite or both (got "${WHICH}")`);
const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
const HAS_WRK = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
const SATURATION = process.env.BENCH_SATURATION ?? (HAS_WRK ? 'wrk' : 'sweep');
if (SATURATION === 'wrk' && !HAS_WRK) fail('BENCH_SATURATION=wrk but wrk is not installed (apt-get install -y wrk)');
const PROFILE = process.env.BENCH_PROFILE === '1';

const C = QUICK
  ? { rates: [200, 500, 1000], nsDur: 3, nsWarm: 1, rounds: 1, wrkSecs: 4, sweepSecs: 3, streamDur: 5, streamWarm: 1, streamRounds: 1, memDur: 8 }
  : { rates: [200, 500, 1000], nsDur: 6, nsWarm: 2, rounds: 2, wrkSecs: 8, sweepSecs: 4, streamDur: 10, streamWarm: 2, streamRounds: 2, memDur: 12 };
const STREAMS = 200;
const MEM_STREAMS = 1000;
const MOCK_NONSTREAM = ['--ttft', '0', '--itl', '0', '--tokens', '32', '--bytes', '256'];
const MOCK_STREAM = ['--ttft', '50', '--itl', '20', '--tokens', '50', '--bytes', '1024']; // ~1 s streams, 50 chunks
const MOCK_MEM = ['--ttft', '200', '--itl', '200', '--tokens', '40', '--bytes', '1024']; // ~8 s streams: they stay open
const SWEEP_RATES = [200, 500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 6000];
/** A sweep step passes when ≥ 99 % of the offered rate is served, without errors, and p99 stays under this (no runaway queue). */
const SWEEP_P99_MS = 250;

const TARGETS = { p50At500: 1.5, p99At500: 10, saturation: 2000, ttftP50: 2, memKBPerStream: 150, pgliteShare: 0.4 };

const STAMP = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');
const OUT = path.join(ROOT, 'bench', 'results', STAMP);
mkdirSync(OUT, { recursive: true });
cleanUpOnSignals();

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

// ---------------------------------------------------------------- build, mock
function ensureBuild() {
  if (existsSync('dist/server.js') && existsSync('.next/BUILD_ID')) return;
  console.log('bench: no production build found, building (node scripts/build.mjs)…');
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) fail('build failed');
}

const mock = { port: 0, child: null, mode: '' };

async function startMock(args, mode) {
  if (mock.mode === mode && mock.child) return;
  if (mock.child) await stopProcess(mock.child, 3_000);
  mock.port ||= await freePort();
  mock.child = startProcess('mock', 0, process.execPath, ['bench/mock-upstream.mjs', '--port', String(mock.port), ...args], process.env, path.join(OUT, `mock-${mode}.log`));
  mock.mode = mode;
  await waitHttp(`http://127.0.0.1:${mock.port}/health`, mock.child, 10_000);
}

// ---------------------------------------------------------------- databases
async function createPgDatabase() {
  const name = `sb_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + name;
  const drop = async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  cleanups.push(drop);
  return { name, url: u.toString(), drop };
}

function dbEnv(db) {
  const base = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  delete base.REDIS_URL; // the rate limiter stays in memory: one process
  return db.kind === 'postgres' ? { ...base, DATABASE_URL: db.url, AUTH_SECRET: db.authSecret } : { ...base, DATA_DIR: db.dataDir };
}

async function cli(db, args) {
  const r = await run('npx', ['tsx', 'server/cli/main.ts', ...args], { env: dbEnv(db), quiet: true, log: path.join(OUT, `${db.kind}-cli.log`) });
  if (r.code !== 0) throw new Error(`cli ${args[0]} failed: ${(r.err || r.out).trim().split('\n').slice(-3).join(' ')}`);
  return r.out.trim();
}

// ---------------------------------------------------------------- load phases
function targetsFor(server, key) {
  return [
    `direct|http://127.0.0.1:${mock.port}/v1/chat/completions|gpt-4o-mini`,
    `switchboard|http://127.0.0.1:${server.port}/api/v1/chat/completions|openai/gpt-4o-mini|authorization: Bearer ${key}`,
  ];
}

function watchArgs(server, db) {
  const w = ['--watch', `switchboard=${server.child.pid}`, '--watch', `mock=${mock.child.pid}`];
  // PostgreSQL backends of the bench database are part of the system under test, not noise.
  if (db.kind === 'postgres') w.push('--watch-cmd', `postgres=${db.name}`);
  return w;
}

async function load(label, args, file) {
  const json = path.join(OUT, file);
  const r = await run(process.execPath, ['bench/load.mjs', ...args, '--noise-retries', '1', '--label', label, '--json', json], { cpu: 0, log: path.join(OUT, 'load.log') });
  if (r.code !== 0 || !existsSync(json)) throw new Error(`load.mjs (${label}) failed with code ${r.code}`);
  return JSON.parse(readFileSync(json, 'utf8'));
}

const errCount = (s) => Object.values(s.err ?? {}).reduce((a, b) => a + b, 0) + (s.shed ?? 0);

async function wrk(name, url, model, headers, secs, server) {
  const env = { ...process.env, WRK_MODEL: model, WRK_HEADERS: headers };
  const args = ['-t1', '-c64', '--latency', '-s', 'bench/wrk-post.lua', url];
  await run('wrk', ['-d2s', ...args], { env, quiet: true, cpu: 0 }); // warm-up
  const cpu0 = server ? cpuMs(server.child.pid) : NaN;
  const t0 = performance.now();
  const r = await run('wrk', [`-d${secs}s`, ...args], { env, quiet: true, cpu: 0, log: path.join(OUT, `${server?.db.kind ?? 'mock'}-wrk-${name}.txt`) });
  const el = (performance.now() - t0) / 1000;
  const out = r.out;
  const num = (re) => {
    const m = re.exec(out);
    return m ? +m[1] : 0;
  };
  const ms = (re) => {
    const m = re.exec(out);
    if (!m) return NaN;
    const v = parseFloat(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const total = num(/(\d+) requests in/);
  const non2xx = num(/Non-2xx or 3xx responses: (\d+)/);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const sockErr = sock ? sock.slice(1).reduce((a, b) => a + +b, 0) : 0;
  const rps = num(/Requests\/sec:\s+([\d.]+)/);
  const res = {
    tool: 'wrk -t1 -c64',
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

async function sweep(name, target, server, db) {
  let best = 0;
  let last = null;
  for (const rate of SWEEP_RATES) {
    let ok = false;
    for (let attempt = 1; attempt <= 2 && !ok; attempt++) {
      const j = await load(`sweep-${name}-${rate}`, ['--target', target, ...watchArgs(server, db), '--rate', String(rate), '--duration', String(C.sweepSecs), '--warmup', '1', '--timeout', '10000', '--quiet'], `${db.kind}-sweep-${name}-${rate}-${attempt}.json`);
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

// ---------------------------------------------------------------- one database
async function benchDatabase(kind) {
  const db = { kind };
  if (kind === 'postgres') {
    try {
      Object.assign(db, await createPgDatabase());
    } catch (err) {
      console.log(`\nbench: PostgreSQL at ${redact(ADMIN_URL)} is unreachable (${err.message}); skipping it. Set BENCH_DATABASE_URL to an admin connection.`);
      return { kind, skipped: `PostgreSQL unreachable: ${err.message}` };
    }
    db.authSecret = randomBytes(32).toString('base64url');
  } else {
    db.dataDir = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-pglite-'));
    cleanups.push(async () => rmSync(db.dataDir, { recursive: true, force: true }));
  }
  console.log(`\n==================== ${kind === 'postgres' ? `PostgreSQL (database ${db.name})` : `embedded PGlite (${db.dataDir})`} ====================`);

  await startMock(MOCK_NONSTREAM, 'nonstream');
  const port = await freePort();
  const env = {
    ...dbEnv(db),
    PORT: String(port),
    HOST: '127.0.0.1',
    OPENAI_BASE_URL: `http://127.0.0.1:${mock.port}/v1`,
    OPENAI_API_KEY: 'sk-mock',
    RATE_LIMIT_RPM: '100000000',
    SKIP_DEMO: '1',
    NODE_ENV: 'production',
  };
  let starts = 0;
  const startServer = async () => {
    const t0 = Date.now();
    const child = startProcess('switchboard', 1, process.execPath, [...SERVER_NODE_ARGS, ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', OUT] : []), 'dist/server.js'], env, path.join(OUT, `${kind}-server${starts++ ? `-${starts}` : ''}.log`));
    server.child = child;
    await waitHttp(`http://127.0.0.1:${port}/api/health`, child, 120_000);
    const dbThread = db.kind === 'pglite' ? pinDbThread(db.dataDir) : '';
    console.log(`server up on :${port} (pid ${child.pid}${dbThread}) in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    return (Date.now() - t0) / 1000;
  };
  const server = { port, child: null, db };
  const alive = () => {
    const c = server.child;
    if (c && (c.exitCode !== null || c.signalCode !== null)) throw new Error(`the server exited (${c.signalCode ?? `code ${c.exitCode}`}) during the run`);
  };
  const result = { kind };
  const unpin = db.kind === 'postgres' ? pinPgBackends(db.name) : () => {};
  try {
    result.startSeconds = await startServer();
    result.pid = server.child.pid;

    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    await cli(db, ['user:create', '--email', email, '--password', 'bench-password-' + randomBytes(6).toString('hex')]);
    await cli(db, ['credits:grant', '--email', email, '--amount', '100000', '--note', 'npm run bench']);
    const key = JSON.parse((await cli(db, ['key:create', '--email', email, '--name', 'bench', '--json'])).split('\n').pop()).key;
    if (!key) throw new Error('key:create returned no key');

    // Sanity: one request through the gateway must succeed before measuring anything.
    const probe = await fetch(`http://127.0.0.1:${port}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: false, messages: [{ role: 'user', content: 'hello' }] }),
    });
    if (probe.status !== 200) throw new Error(`probe request through Switchboard answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
    await probe.text();

    const [direct, sb] = targetsFor(server, key);
    const T = ['--target', direct, '--target', sb];
    const W = () => watchArgs(server, db);

    // 1. non-streaming open loop
    result.nonstream = {};
    for (const rate of C.rates) {
      const j = await load(`${kind} non-stream ${rate} req/s`, [...T, ...W(), '--rate', String(rate), '--duration', String(C.nsDur), '--warmup', String(C.nsWarm), '--rounds', String(C.rounds)], `${kind}-nonstream-${rate}.json`);
      alive();
      const d = j.targets.direct;
      const s = j.targets.switchboard;
      result.nonstream[rate] = {
        direct: { p50: d.lat.p50, p99: d.lat.p99, rps: d.rps, errors: errCount(d) },
        switchboard: { p50: s.lat.p50, p99: s.lat.p99, coP99: s.co.p99, rps: s.rps, errors: errCount(s), ok: s.ok, cpuUsPerReq: s.watch.switchboard?.cpuUsPerReq, pgCpuUsPerReq: s.watch.postgres?.cpuUsPerReq },
        addedP50: s.lat.p50 - d.lat.p50,
        addedP99: s.lat.p99 - d.lat.p99,
        noisy: Math.max(d.maxForeignCpuPct ?? 0, s.maxForeignCpuPct ?? 0),
      };
    }

    // 2. saturation
    console.log(`\n== ${kind} saturation (${SATURATION === 'wrk' ? 'wrk -t1 -c64, closed loop' : 'open-loop rate ladder'}) ==`);
    if (SATURATION === 'wrk') {
      const [, durl, dmodel] = direct.split('|');
      const [, surl, smodel, shdr] = sb.split('|');
      result.saturation = { direct: await wrk('direct', durl, dmodel, '', C.wrkSecs, null), switchboard: await wrk('switchboard', surl, smodel, shdr, C.wrkSecs, server) };
    } else {
      result.saturation = { direct: null, switchboard: await sweep('switchboard', sb, server, db) };
    }
    alive();

    // 3. streaming, 200 concurrent streams
    await startMock(MOCK_STREAM, 'stream');
    {
      const j = await load(`${kind} stream ${STREAMS} concurrent`, [...T, ...W(), '--stream', '--concurrency', String(STREAMS), '--ramp', '2', '--duration', String(C.streamDur), '--warmup', String(C.streamWarm), '--rounds', String(C.streamRounds)], `${kind}-stream-${STREAMS}.json`);
      alive();
      const d = j.targets.direct;
      const s = j.targets.switchboard;
      result.stream = {
        direct: { ttftP50: d.ttft.p50, ttftP99: d.ttft.p99, passP50: d.pass.p50, passP99: d.pass.p99, streams: d.ok, errors: errCount(d) },
        switchboard: { ttftP50: s.ttft.p50, ttftP99: s.ttft.p99, passP50: s.pass.p50, passP99: s.pass.p99, streams: s.ok, errors: errCount(s), cpuUsPerStream: s.watch.switchboard?.cpuUsPerReq },
        addedTtftP50: s.ttft.p50 - d.ttft.p50,
        addedTtftP99: s.ttft.p99 - d.ttft.p99,
        addedPassP50: s.pass.p50 - d.pass.p50,
        addedPassP99: s.pass.p99 - d.pass.p99,
      };
    }

    // 4. memory with 1,000 concurrent open streams (long streams, so they stay open together), on a fresh
    // server: one that just ran the saturation phases keeps a grown heap, which would hide what streams cost.
    await startMock(MOCK_MEM, 'mem');
    {
      await stopProcess(server.child);
      await startServer();
      const child = server.child;
      // warm-up: a few streams, so code paths are loaded and compiled before the baseline is taken
      await load(`${kind} memory warm-up`, ['--target', sb, '--stream', '--concurrency', '20', '--duration', '2', '--warmup', '0', '--rounds', '1', '--quiet'], `${kind}-memory-warmup.json`);
      await sleep(2_000);
      const before = rssKB(child.pid);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssKB(child.pid) || 0)), 100);
      const j = await load(`${kind} memory ${MEM_STREAMS} open streams`, ['--target', sb, ...W(), '--stream', '--concurrency', String(MEM_STREAMS), '--ramp', '3', '--duration', String(C.memDur), '--warmup', '0', '--rounds', '1'], `${kind}-memory-${MEM_STREAMS}.json`);
      clearInterval(sampler);
      alive();
      const s = j.targets.switchboard;
      result.memory = {
        streams: MEM_STREAMS,
        maxInFlight: s.maxInflight,
        completed: s.ok,
        errors: errCount(s),
        rssBeforeMB: before / 1024,
        rssPeakMB: peak / 1024,
        kbPerStream: (peak - before) / Math.max(1, Math.min(MEM_STREAMS, s.maxInflight)),
        ttftP50: s.ttft.p50,
        ttftP99: s.ttft.p99,
      };
      console.log(`  memory: RSS ${(before / 1024).toFixed(0)} MB at rest -> peak ${(peak / 1024).toFixed(0)} MB with ${s.maxInflight} streams open: ${result.memory.kbPerStream.toFixed(0)} KB per stream`);
    }
  } catch (err) {
    result.error = err.message;
    // A shared machine: someone else's clean-up (pkill -f …) may stop our server. Say so, and let main retry.
    const c = server.child;
    if (c && c.signalCode && !c.stopping) result.killedFromOutside = c.signalCode;
    console.error(`bench: ${kind} run failed: ${err.message} (server log: ${path.relative(ROOT, path.join(OUT, `${kind}-server.log`))})`);
  } finally {
    unpin();
    await stopProcess(server.child);
    if (mock.mode !== 'nonstream') await startMock(MOCK_NONSTREAM, 'nonstream').catch(() => {});
    if (db.drop) {
      cleanups.splice(cleanups.indexOf(db.drop), 1); // drop the database now rather than at exit
      await db.drop().catch((e) => console.error(`bench: could not drop ${db.name}: ${e.message}`));
    }
  }
  return result;
}

function redact(u) {
  try {
    const x = new URL(u);
    if (x.password) x.password = '***';
    return x.toString();
  } catch {
    return u;
  }
}

// ---------------------------------------------------------------- main
async function main() {
  const started = Date.now();
  ensureBuild();
  const kinds = WHICH === 'both' ? ['postgres', 'pglite'] : [WHICH];
  const cpu = os.cpus();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim()}), Node ${process.version}, ${os.platform()} ${os.release()}`;
  console.log(`bench: ${QUICK ? 'QUICK run' : 'full run'}; databases: ${kinds.join(', ')}; saturation: ${SATURATION}; pinning: ${PIN ? 'server on CPU 1, mock + load driver + wrk on CPU 0' : 'none'}`);
  console.log(`bench: ${machine}`);
  console.log(`bench: results -> ${path.relative(ROOT, OUT)}/`);

  const idleBefore = await busyOthers(2_000);
  console.log(`bench: other processes use ${idleBefore.toFixed(0)} % of one core right now${idleBefore > 25 ? ' — a busy machine: expect inflated latencies' : ''}`);
  const results = [];
  for (const kind of kinds) {
    let r = await benchDatabase(kind);
    if (r.killedFromOutside) {
      console.log(`bench: the ${kind} server was stopped by a ${r.killedFromOutside} that did not come from this benchmark (another process on the machine); running ${kind} again`);
      r = await benchDatabase(kind);
    }
    results.push(r);
  }
  await cleanupAll();

  const pgSat = results.find((r) => r.kind === 'postgres')?.saturation?.switchboard?.rps;
  const md = [
    `## npm run bench — ${new Date().toISOString()}`,
    '',
    `${QUICK ? 'Quick run (BENCH_QUICK=1: short phases, 1 round)' : `Full run (${C.rounds} ABBA rounds × ${C.nsDur} s per non-streaming phase)`}. Machine: ${machine}. ` +
      `CPU pinning: ${PIN ? `Switchboard on CPU 1; mock upstream, load driver, wrk${PIN_PG ? " and the database (the bench database's PostgreSQL backends, the embedded database's thread)" : ''} on CPU 0${PIN_PG ? '' : ' (the database unpinned)'}` : 'none'}. ` +
      `Before the run, other processes used ${f(idleBefore, 0)} % of one core${idleBefore > 25 ? ' (a busy machine: latency figures are inflated)' : ''}. ` +
      'Mock upstream answers at once for non-streaming; streams: TTFT 50 ms, 50 chunks 20 ms apart. "added" = through Switchboard minus direct.',
    '',
    ...results.map((r) => table(r, pgSat, { TARGETS, STREAMS, MEM_STREAMS })),
  ].join('\n');
  writeFileSync(path.join(OUT, 'summary.md'), md + '\n');
  writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify({ date: new Date().toISOString(), quick: QUICK, machine, pinned: PIN, otherCpuBeforePct: idleBefore, saturationMethod: SATURATION, targets: TARGETS, config: C, results }, null, 1) + '\n');
  console.log('\n' + md);
  console.log(`bench: done in ${((Date.now() - started) / 1000).toFixed(0)}s; JSON, tables and logs in ${path.relative(ROOT, OUT)}/`);
  process.exit(results.some((r) => r.error) ? 1 : 0);
}

main().catch(async (err) => {
  console.error(`bench: ${err.stack ?? err}`);
  await cleanupAll();
  process.exit(1);
});
