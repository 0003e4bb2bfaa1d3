// The bench's streaming phases (scripts/bench.mjs phases 4–6), on one database's server:
//   4. 200 concurrent streams, direct and through Switchboard: added time-to-first-token and per-chunk
//      pass-through delay;
//   5. a fresh server: restarted, and FRESH_AFTER_S after its start the same 200 streams (Switchboard only);
//   6. memory: the server's RSS at rest against its peak with 1,000 concurrent open streams, per stream.
// `ctx` is what bench.mjs's benchDatabase holds: { out, kind, C, T (both targets' args), direct, sb (the two
// targets), W() (the --watch args), server (its child), startServer(), alive() }.
import { errCount, load } from './load-tools.mjs';
import { rssKB, sleep, stopProcess } from './processes.mjs';

export const STREAMS = 200;
export const MEM_STREAMS = 1000;
/** The fresh-server phase's stream load starts this long after the server was started. */
export const FRESH_AFTER_S = 10;

/** `STREAMS` concurrent streams against `targets` (load-tools' load, streaming). */
function streams(ctx, label, targets, file, { warmup = ctx.C.streamWarm, rounds = ctx.C.streamRounds } = {}) {
  const { out, C, W } = ctx;
  return load(out, label, [...targets, ...W(), '--stream', '--concurrency', String(STREAMS), '--ramp', '2', '--duration', String(C.streamDur), '--warmup', String(warmup), '--rounds', String(rounds)], file);
}

/** 4. Added TTFT and pass-through delay, 200 concurrent streams. */
export async function streamPhase(ctx) {
  const { kind, T } = ctx;
  const j = await streams(ctx, `${kind} stream ${STREAMS} concurrent`, T, `${kind}-stream-${STREAMS}.json`);
  ctx.alive();
  const d = j.targets.direct;
  const s = j.targets.switchboard;
  return {
    direct: { ttftP50: d.ttft.p50, ttftP99: d.ttft.p99, passP50: d.pass.p50, passP99: d.pass.p99, streams: d.ok, errors: errCount(d) },
    switchboard: { ttftP50: s.ttft.p50, ttftP99: s.ttft.p99, passP50: s.pass.p50, passP99: s.pass.p99, streams: s.ok, errors: errCount(s), cpuUsPerStream: s.watch.switchboard?.cpuUsPerReq },
    addedTtftP50: s.ttft.p50 - d.ttft.p50,
    addedTtftP99: s.ttft.p99 - d.ttft.p99,
    addedPassP50: s.pass.p50 - d.pass.p50,
    addedPassP99: s.pass.p99 - d.pass.p99,
  };
}

/**
 * 5. A fresh server: started FRESH_AFTER_S before the stream load, which is measured from its first stream
 * (Switchboard only: a direct phase first would give the server that time to settle). Compared with
 * `directTtftP50` (phase 4's, same mock and load), or a direct run measured here when phase 4 did not run.
 */
export async function freshPhase(ctx, directTtftP50) {
  const { kind, direct, sb, server } = ctx;
  const directTtft = directTtftP50 ?? (await streams(ctx, `${kind} stream direct (for the fresh server)`, ['--target', direct], `${kind}-stream-direct.json`, { rounds: 1 })).targets.direct.ttft.p50;
  await stopProcess(server.child);
  await ctx.startServer();
  await sleep(server.startedAt + FRESH_AFTER_S * 1000 - Date.now());
  const startedS = (Date.now() - server.startedAt) / 1000;
  // No redo of a noisy phase here: the redo would run on a server that is no longer fresh.
  const s = (await streams(ctx, `${kind} stream ${STREAMS} concurrent, server started ${startedS.toFixed(1)} s earlier`, ['--target', sb, '--noise-retries', '0'], `${kind}-stream-fresh.json`, { warmup: 0, rounds: 1 })).targets.switchboard;
  ctx.alive();
  return { startedS, ttftP50: s.ttft.p50, ttftP99: s.ttft.p99, directTtftP50: directTtft, addedTtftP50: s.ttft.p50 - directTtft, streams: s.ok, errors: errCount(s) };
}

/**
 * 6. Memory with 1,000 concurrent open streams (long streams, so they stay open together), on a fresh
 * server: one that just ran the saturation phases keeps a grown heap, which would hide what streams cost.
 */
export async function memoryPhase(ctx) {
  const { out, kind, C, sb, W, server } = ctx;
  await stopProcess(server.child);
  await ctx.startServer();
  const child = server.child;
  // warm-up: a few streams, so code paths are loaded and compiled before the baseline is taken
  await load(out, `${kind} memory warm-up`, ['--target', sb, '--stream', '--concurrency', '20', '--duration', '2', '--warmup', '0', '--rounds', '1', '--quiet'], `${kind}-memory-warmup.json`);
  await sleep(2_000);
  const before = rssKB(child.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKB(child.pid) || 0)), 100);
  const j = await load(out, `${kind} memory ${MEM_STREAMS} open streams`, ['--target', sb, ...W(), '--stream', '--concurrency', String(MEM_STREAMS), '--ramp', '3', '--duration', String(C.memDur), '--warmup', '0', '--rounds', '1'], `${kind}-memory-${MEM_STREAMS}.json`);
  clearInterval(sampler);
  ctx.alive();
  const s = j.targets.switchboard;
  const memory = {
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
  console.log(`  memory: RSS ${(before / 1024).toFixed(0)} MB at rest -> peak ${(peak / 1024).toFixed(0)} MB with ${s.maxInflight} streams open: ${memory.kbPerStream.toFixed(0)} KB per stream`);
  return memory;
}
