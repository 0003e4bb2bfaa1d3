#!/usr/bin/env node
// `npm run bench`: what Switchboard adds on top of calling the provider directly, measured in one run.
//
// Starts the mock upstream (bench/mock-upstream.mjs) and, per database (PostgreSQL, embedded PGlite), the
// production server (node dist/server.js) pointed at it; creates a user, credit and API key with the CLI;
// then drives the same load straight at the mock ("direct") and through Switchboard ("switchboard", real
// key: auth, rate limit, balance check/reservation and metering all on), alternated ABBA (bench/load.mjs):
//   1. non-streaming, open loop at 200, 500 and 1,000 req/s: added p50/p99 latency
//   1b. routing: 500 req/s to a model with two endpoints of two keys each (SWITCHBOARD_CONFIG written for
//      the run), graded against the same targets as the one-endpoint model
//   2. embedded database only: 500 req/s again with the server and its database thread on ONE core
//   3. saturation: wrk closed loop (-c64) when installed, else an open-loop rate ladder
//   4. streaming, 200 concurrent streams: added time-to-first-token, per-chunk pass-through delay; then the
//      server's RSS at rest ("after the bench")
//   5. fresh server: restarted, and 10 s after its start the same 200 streams (Switchboard only): added TTFT
//   6. memory: server RSS at rest vs peak with 1,000 concurrent open streams, per stream (restarted again)
//   7. observability: CPU per chat request with metrics + request logs on vs off, 500 req/s non-streaming, a fresh
//      server per leg, ABBA (scripts/bench/observability.mjs; issue 17's ≤ 5 %)
//   8. workers (PostgreSQL): saturation with WORKERS=2 against WORKERS=1, nothing pinned (scripts/bench/workers.mjs)
// and prints a markdown table per database with PASS/FAIL against the targets below. Everything (JSON,
// tables, server logs) goes to bench/results/<timestamp>/. Loopback only; every phase is bounded.
//
// Env: BENCH_QUICK=1 (short phases, one round: a smoke run of ~3 min), BENCH_DB=postgres|pglite|both,
//      BENCH_PHASES=nonstream,routing,onecore,saturation,stream,fresh,memory,observability,workers (a subset, for experiments; default all),
//      BENCH_DATABASE_URL or TEST_DATABASE_URL (admin connection; default postgresql://postgres@127.0.0.1:5432/postgres;
//      a fresh database is created and dropped), BENCH_SATURATION=wrk|sweep (default: wrk when installed),
//      BENCH_PIN=0 (do not pin processes to CPUs), BENCH_PIN_PG=0 (leave the database — PostgreSQL's backends, PGlite's thread — to the scheduler), BENCH_PROFILE=1 (the server writes V8 CPU profiles,
//      *.cpuprofile, into the results folder; summarise one with `node scripts/cpuprofile-top.mjs FILE`),
//      BENCH_NODE_ARGS="--trace-gc …" (extra node flags for the server, for experiments),
//      BENCH_OBSERVABILITY=off (every phase but 7 with metrics and request logs off: LOG_LEVEL=silent, METRICS_ENABLED=0).
// CPU pinning (2+ cores, taskset available): the server on CPU 1; mock, load driver, wrk and the bench database's
// PostgreSQL backends (or embedded PGlite's thread) on CPU 0. Process handling is in scripts/bench/processes.mjs,
// databases in scripts/bench/databases.mjs, the load tools in scripts/bench/load-tools.mjs, phases 4–6 in
// scripts/bench/stream-phases.mjs, the report in scripts/bench/report.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { busyOthers, cleanUpOnSignals, cleanupAll, freePort, PIN, PIN_PG, pinDbThread, pinPgBackends, rssKB, sleep, startProcess, stopProcess, waitHttp } from './bench/processes.mjs';
import { ADMIN_URL, createDatabase, dbEnv, dropDatabase, mintKey, redact } from './bench/databases.mjs';
import { load, nonStreamResult, sweep, wrk } from './bench/load-tools.mjs';
import { FRESH_AFTER_S, freshPhase, MEM_STREAMS, memoryPhase, STREAMS, streamPhase } from './bench/stream-phases.mjs';
import { f, table } from './bench/report.mjs';
import { OBSERVABILITY_OFF_ENV, observabilityCost, observabilityMode } from './bench/observability.mjs';
import { workersSaturation } from './bench/workers.mjs';
import { SERVER_ENV, serverNodeArgs } from './server-node-args.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);

// ---------------------------------------------------------------- configuration
const QUICK = process.env.BENCH_QUICK === '1';
const WHICH = (process.env.BENCH_DB ?? 'both').toLowerCase();
if (!['postgres', 'pglite', 'both'].includes(WHICH)) fail(`BENCH_DB must be postgres, pglite or both (got "${WHICH}")`);
const ALL_PHASES = ['nonstream', 'routing', 'onecore', 'saturation', 'stream', 'fresh', 'memory', 'observability', 'workers'];
const PHASES = new Set((process.env.BENCH_PHASES ?? ALL_PHASES.join(',')).split(',').map((p) => p.trim()));
for (const p of PHASES) if (!ALL_PHASES.includes(p)) fail(`BENCH_PHASES: unknown phase "${p}" (known: ${ALL_PHASES.join(', ')})`);
const HAS_WRK = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
const SATURATION = process.env.BENCH_SATURATION ?? (HAS_WRK ? 'wrk' : 'sweep');
if (SATURATION === 'wrk' && !HAS_WRK) fail('BENCH_SATURATION=wrk but wrk is not installed (apt-get install -y wrk)');
const PROFILE = process.env.BENCH_PROFILE === '1';
const EXTRA_NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
let OBSERVABILITY;
try {
  OBSERVABILITY = observabilityMode();
} catch (err) {
  fail(err.message);
}

const C = QUICK
  ? { rates: [200, 500, 1000], nsDur: 3, nsWarm: 1, rounds: 1, wrkSecs: 4, sweepSecs: 3, streamDur: 5, streamWarm: 1, streamRounds: 1, memDur: 8 }
  : { rates: [200, 500, 1000], nsDur: 6, nsWarm: 2, rounds: 2, wrkSecs: 8, sweepSecs: 4, streamDur: 10, streamWarm: 2, streamRounds: 2, memDur: 12 };
const MOCK_NONSTREAM = ['--ttft', '0', '--itl', '0', '--tokens', '32', '--bytes', '256'];
const MOCK_STREAM = ['--ttft', '50', '--itl', '20', '--tokens', '50', '--bytes', '1024']; // ~1 s streams, 50 chunks
const MOCK_MEM = ['--ttft', '200', '--itl', '200', '--tokens', '40', '--bytes', '1024']; // ~8 s streams: they stay open

// Issue 3 (the gateway) set the first six, graded on both databases (TTFT on PostgreSQL); issue 12 the rest.
const TARGETS = {
  p50At500: 1.5, p99At500: 10, saturation: 2000, ttftP50: 2, memKBPerStream: 150, pgliteShare: 0.4,
  pgP99At500: 5, pgP99At1000: 10, pgliteOneCoreP99At500: 10, freshTtftP50: 2, pgliteRssMB: 350,
  routeChoiceUs: 50, // issue 13
  observabilityPct: 5, // issue 17: metrics + request logs, CPU per chat request
};

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

/**
 * The routing leg's configuration: bench/pooled with two endpoints (two providers on the mock), each with
 * two keys of different weights. Every request is served by the first endpoint; the choice is what is measured.
 */
function writeRoutingConfig() {
  const file = path.join(OUT, 'routing.json');
  const provider = (id) => ({ id, type: 'openai-compatible', base_url: `http://127.0.0.1:${mock.port}/v1`, keys: [{ key: `sk-${id}-1`, weight: 1 }, { key: `sk-${id}-2`, weight: 3 }] });
  const endpoint = (p) => ({ provider: p, upstream_model: 'gpt-4o-mini', pricing: { input: 0.15, output: 0.6 } });
  const config = {
    providers: [provider('mock-a'), provider('mock-b')],
    models: [{ id: 'bench/pooled', name: 'Bench: two endpoints, two keys each', context_length: 128000, max_output_tokens: 16384, endpoints: [endpoint('mock-a'), endpoint('mock-b')] }],
  };
  writeFileSync(file, JSON.stringify(config, null, 1));
  return file;
}

// ---------------------------------------------------------------- one database
async function benchDatabase(kind) {
  let db;
  try {
    db = await createDatabase(kind);
  } catch (err) {
    console.log(`\nbench: PostgreSQL at ${redact(ADMIN_URL)} is unreachable (${err.message}); skipping it. Set BENCH_DATABASE_URL to an admin connection.`);
    return { kind, skipped: `PostgreSQL unreachable: ${err.message}` };
  }
  console.log(`\n==================== ${kind === 'postgres' ? `PostgreSQL (database ${db.name})` : `embedded PGlite (${db.dataDir})`} ====================`);

  await startMock(MOCK_NONSTREAM, 'nonstream');
  const port = await freePort();
  const env = {
    ...SERVER_ENV,
    ...dbEnv(db),
    PORT: String(port),
    HOST: '127.0.0.1',
    OPENAI_BASE_URL: `http://127.0.0.1:${mock.port}/v1`,
    OPENAI_API_KEY: 'sk-mock',
    RATE_LIMIT_RPM: '100000000',
    SKIP_DEMO: '1',
    SWITCHBOARD_CONFIG: writeRoutingConfig(),
    NODE_ENV: 'production',
    ...(OBSERVABILITY === 'off' ? OBSERVABILITY_OFF_ENV : {}),
  };
  const server = { port, child: null, db, startedAt: 0, dbThreadId: 0 };
  let starts = 0;
  const startServer = async ({ cpu = 1 } = {}) => {
    const t0 = Date.now();
    const nodeArgs = [...serverNodeArgs(env), ...EXTRA_NODE_ARGS, ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', OUT] : [])];
    server.logFile = path.join(OUT, `${kind}-server${starts++ ? `-${starts}` : ''}.log`);
    server.child = startProcess('switchboard', cpu, process.execPath, [...nodeArgs, 'dist/server.js'], env, server.logFile);
    server.startedAt = t0;
    await waitHttp(`http://127.0.0.1:${port}/api/health`, server.child, 120_000);
    const dbThread = db.kind === 'pglite' ? pinDbThread(db.dataDir, 0) : '';
    console.log(`server up on :${port} (pid ${server.child.pid}${dbThread}) in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    return (Date.now() - t0) / 1000;
  };
  const alive = () => {
    const c = server.child;
    if (c && (c.exitCode !== null || c.signalCode !== null)) throw new Error(`the server exited (${c.signalCode ?? `code ${c.exitCode}`}) during the run`);
  };
  const result = { kind };
  const unpin = db.kind === 'postgres' ? pinPgBackends(db.name) : () => {};
  try {
    result.startSeconds = await startServer();
    result.pid = server.child.pid;
    const key = await mintKey(db, OUT);

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
    const nonStream = (label, rate, file) => load(OUT, label, [...T, ...W(), '--rate', String(rate), '--duration', String(C.nsDur), '--warmup', String(C.nsWarm), '--rounds', String(C.rounds)], file);

    // 1. non-streaming open loop
    if (PHASES.has('nonstream')) {
      result.nonstream = {};
      for (const rate of C.rates) {
        result.nonstream[rate] = nonStreamResult(await nonStream(`${kind} non-stream ${rate} req/s`, rate, `${kind}-nonstream-${rate}.json`));
        alive();
      }
    }

    // 1b. routing: the same load to a model of two endpoints with two keys each
    if (PHASES.has('routing')) {
      const routed = sb.replace('|openai/gpt-4o-mini|', '|bench/pooled|');
      result.routing = nonStreamResult(await load(OUT, `${kind} non-stream 500 req/s, two endpoints × two keys`, ['--target', direct, '--target', routed, ...W(), '--rate', '500', '--duration', String(C.nsDur), '--warmup', String(C.nsWarm), '--rounds', String(C.rounds)], `${kind}-routing-500.json`));
      alive();
    }

    // 2. the embedded database sharing the server's core (as on a one-core host)
    if (PHASES.has('onecore') && db.kind === 'pglite') {
      if (!PIN || !pinDbThread(db.dataDir, 1).includes('on CPU 1')) result.oneCore = { skipped: 'needs 2+ cores and taskset' };
      else {
        try {
          result.oneCore = nonStreamResult(await nonStream(`${kind} non-stream 500 req/s, server and database thread on one core`, 500, `${kind}-nonstream-500-one-core.json`));
        } finally {
          pinDbThread(db.dataDir, 0);
        }
        alive();
      }
    }

    // 3. saturation
    if (PHASES.has('saturation')) {
      console.log(`\n== ${kind} saturation (${SATURATION === 'wrk' ? 'wrk -t1 -c64, closed loop' : 'open-loop rate ladder'}) ==`);
      if (SATURATION === 'wrk') {
        const [, durl, dmodel] = direct.split('|');
        const [, surl, smodel, shdr] = sb.split('|');
        result.saturation = { direct: await wrk(OUT, 'direct', durl, dmodel, '', C.wrkSecs, null), switchboard: await wrk(OUT, 'switchboard', surl, smodel, shdr, C.wrkSecs, server) };
      } else {
        result.saturation = { direct: null, switchboard: await sweep(OUT, 'switchboard', sb, W(), C.sweepSecs, kind) };
      }
      alive();
    }

    // 4–6. streaming, a fresh server's TTFT, memory per open stream (scripts/bench/stream-phases.mjs); between
    // 4 and 5 the server's memory at rest after all of the above
    const ctx = { out: OUT, kind, C, T, direct, sb, W, server, startServer, alive };
    await startMock(MOCK_STREAM, 'stream');
    if (PHASES.has('stream')) result.stream = await streamPhase(ctx);
    await sleep(2_000);
    result.rssAfterMB = rssKB(server.child.pid) / 1024;
    console.log(`  server RSS at rest after the load phases: ${f(result.rssAfterMB, 0)} MB`);
    if (PHASES.has('fresh')) result.fresh = await freshPhase(ctx, result.stream?.direct.ttftP50);
    await startMock(MOCK_MEM, 'mem');
    if (PHASES.has('memory')) result.memory = await memoryPhase(ctx);

    // 7. metrics + request logs on vs off: CPU per chat request (a fresh server per leg, its env switched)
    if (PHASES.has('observability')) {
      await startMock(MOCK_NONSTREAM, 'nonstream');
      result.observability = await observabilityCost({
        out: OUT,
        kind,
        env,
        restart: async () => {
          await stopProcess(server.child);
          await startServer();
        },
        target: sb,
        watch: W,
        rate: 500,
        duration: QUICK ? C.nsDur : 10,
        warmup: QUICK ? C.nsWarm : 10,
        quick: QUICK,
      });
      alive();
    }

    // 8. WORKERS=2 against one worker (PostgreSQL only: the embedded database is one process), nothing pinned
    if (PHASES.has('workers') && db.kind === 'postgres' && SATURATION === 'wrk') {
      await startMock(MOCK_NONSTREAM, 'nonstream');
      try {
        result.workers = await workersSaturation({
          out: OUT,
          target: sb,
          secs: C.wrkSecs,
          start: async (workers) => {
            await stopProcess(server.child);
            env.WORKERS = String(workers);
            await startServer({ cpu: null });
            return server.logFile;
          },
          stop: () => stopProcess(server.child),
        });
      } finally {
        delete env.WORKERS;
      }
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
    await dropDatabase(db);
  }
  return result;
}

/** CPU per endpoint choice, measured in a process of its own (scripts/bench/route-choice.ts). */
function measureRouteChoice() {
  const r = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '--tsconfig', 'tsconfig.json', 'scripts/bench/route-choice.ts'], { encoding: 'utf8', timeout: 120_000 });
  const line = (r.stdout ?? '').trim().split('\n').at(-1);
  try {
    const out = JSON.parse(line);
    console.log(`bench: choosing an endpoint costs ${out.usPerChoice.toFixed(2)} µs of CPU per request (${out.usPerChoiceWithAffinity.toFixed(2)} µs with affinity)`);
    return out;
  } catch {
    console.error(`bench: scripts/bench/route-choice.ts failed: ${(r.stderr ?? '').slice(0, 500)}`);
    return null;
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
  const loadAvg = os.loadavg().map((x) => x.toFixed(2)).join(', ');
  console.log(`bench: other processes use ${idleBefore.toFixed(0)} % of one core right now (load average ${loadAvg})${idleBefore > 25 ? ' — a busy machine: expect inflated latencies' : ''}`);
  const routeChoice = measureRouteChoice();
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
    `${OBSERVABILITY === 'off' ? 'Metrics and request logs OFF (BENCH_OBSERVABILITY=off) in every phase but the observability one. ' : ''}${QUICK ? 'Quick run (BENCH_QUICK=1: short phases, 1 round)' : `Full run (${C.rounds} ABBA rounds × ${C.nsDur} s per non-streaming phase)`}. Machine: ${machine}. ` +
      `CPU pinning: ${PIN ? `Switchboard on CPU 1; mock upstream, load driver, wrk${PIN_PG ? " and the database (the bench database's PostgreSQL backends, the embedded database's thread)" : ''} on CPU 0${PIN_PG ? '' : ' (the database unpinned)'}` : 'none'}. ` +
      `Before the run, other processes used ${f(idleBefore, 0)} % of one core (load average ${loadAvg})${idleBefore > 25 ? ' (a busy machine: latency figures are inflated)' : ''}. ` +
      'Mock upstream answers at once for non-streaming; streams: TTFT 50 ms, 50 chunks 20 ms apart. "added" = through Switchboard minus direct.' +
      (PHASES.size < ALL_PHASES.length ? ` Phases run: ${[...PHASES].join(', ')}.` : ''),
    '',
    ...results.map((r) => table(r, pgSat, { TARGETS, STREAMS, MEM_STREAMS, FRESH_AFTER_S })),
    '### Choosing an endpoint (in process, no database)',
    '',
    '| issue | target | measured | limit | result |',
    '|---|---|---|---|---|',
    routeChoice
      ? `| 13 | CPU to choose an endpoint and key (plan, order keys, health), per request; with affinity | ${routeChoice.usPerChoice.toFixed(2)} µs; ${routeChoice.usPerChoiceWithAffinity.toFixed(2)} µs | ≤ ${TARGETS.routeChoiceUs} µs | ${Math.max(routeChoice.usPerChoice, routeChoice.usPerChoiceWithAffinity) <= TARGETS.routeChoiceUs ? '**PASS**' : '**FAIL**'} |`
      : '| 13 | CPU to choose an endpoint | not measured (scripts/bench/route-choice.ts failed) | | |',
    '',
  ].join('\n');
  writeFileSync(path.join(OUT, 'summary.md'), md + '\n');
  writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify({ date: new Date().toISOString(), quick: QUICK, phases: [...PHASES], machine, pinned: PIN, otherCpuBeforePct: idleBefore, loadAverageBefore: os.loadavg(), saturationMethod: SATURATION, targets: TARGETS, config: C, routeChoice, results }, null, 1) + '\n');
  console.log('\n' + md);
  console.log(`bench: done in ${((Date.now() - started) / 1000).toFixed(0)}s; JSON, tables and logs in ${path.relative(ROOT, OUT)}/`);
  process.exit(results.some((r) => r.error) ? 1 : 0);
}

main().catch(async (err) => {
  console.error(`bench: ${err.stack ?? err}`);
  await cleanupAll();
  process.exit(1);
});
