#!/usr/bin/env node
// Load driver for LLM gateways (undici). Open-loop fixed rate (--rate) or closed-loop (--concurrency),
// non-streaming or SSE streaming (--stream), several targets alternated round by round so that
// "direct" and "through gateway" are measured in one run under the same conditions.
//
//   node bench/load.mjs --rate 500 --duration 10 --rounds 3 \
//     --target 'direct|http://127.0.0.1:9001/v1/chat/completions|gpt-4o-mini' \
//     --target 'gw|http://127.0.0.1:8787/v1/chat/completions|gpt-4o-mini|x-portkey-provider: openai;authorization: Bearer x' \
//     --watch gw=12345 --json /tmp/out.json
//
// target = name|url|model|Header: value;Header: value   (the first target is the baseline)
// Latency = request() call -> full body read. "co" latency = from the intended send time (open loop,
// corrects coordinated omission). Streams: hdr = response headers, ttfb = first body bytes,
// ttft = first content chunk, total, gap = time between body reads, pass = per-chunk pass-through delay
// (client receive time - upstream send stamp "t=<µs>" written by mock-upstream.mjs; same CLOCK_MONOTONIC).
// --watch name=pid samples /proc/<pid> for CPU time per request and peak RSS during each phase.
// --watch-cmd name=substring sums the CPU of every process whose command line contains substring (e.g. the
// PostgreSQL backends of one database: "postgres: user dbname ..."), so that work is not counted as noise.
//
// LOAD_SAMPLES=DIR (environment) writes every recorded non-streaming request as [target, send time (epoch ms),
// latency ms] to DIR/<label>.json at the end, to see when the slow ones came (e.g. against the server's --trace-gc).
//
// Copied from /work/shared/bench (llm-gateway-bench) into Switchboard's bench/; local changes: --watch-cmd,
// LOAD_SAMPLES.
import { Pool } from 'undici';
import { parseArgs } from 'node:util';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const { values: o } = parseArgs({
  options: {
    target: { type: 'string', multiple: true }, url: { type: 'string' }, model: { type: 'string' },
    header: { type: 'string', multiple: true }, rate: { type: 'string' }, concurrency: { type: 'string' },
    stream: { type: 'boolean' }, duration: { type: 'string', default: '10' }, warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' }, connections: { type: 'string' }, 'max-requests': { type: 'string' },
    'max-inflight': { type: 'string', default: '4096' }, timeout: { type: 'string', default: '30000' },
    ramp: { type: 'string', default: '0' }, watch: { type: 'string', multiple: true }, 'watch-cmd': { type: 'string', multiple: true }, json: { type: 'string' },
    'prompt-bytes': { type: 'string', default: '200' }, label: { type: 'string', default: '' }, quiet: { type: 'boolean' },
    'max-noise': { type: 'string', default: '25' }, 'noise-retries': { type: 'string', default: '2' },
  },
});
const STREAM = !!o.stream;
const RATE = o.rate ? +o.rate : 0;
const CONC = o.concurrency ? +o.concurrency : 0;
if (!RATE === !CONC) { console.error('give exactly one of --rate R (open loop) or --concurrency C (closed loop)'); process.exit(2); }
const DUR = +o.duration * 1000; const WARM = +o.warmup * 1000; const ROUNDS = +o.rounds;
const TIMEOUT = +o.timeout; const MAX_INFLIGHT = +o['max-inflight']; const RAMP = +o.ramp * 1000;
const CONNS = +(o.connections ?? (CONC || 1024));
if (DUR > 600_000 || ROUNDS > 50) { console.error('refusing: --duration <= 600 s and --rounds <= 50'); process.exit(2); }

const targets = (o.target ?? [`direct|${o.url}|${o.model ?? 'gpt-4o-mini'}|${(o.header ?? []).join(';')}`]).map((spec) => {
  const [name, url, model = 'gpt-4o-mini', hdrs = ''] = spec.split('|');
  const u = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) { console.error(`refusing non-loopback target ${url}`); process.exit(2); }
  const headers = { 'content-type': 'application/json' };
  for (const h of hdrs.split(';').filter(Boolean)) { const i = h.indexOf(':'); headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim(); }
  const body = JSON.stringify({
    model, stream: STREAM, ...(STREAM ? { stream_options: { include_usage: true } } : {}),
    messages: [{ role: 'user', content: 'x'.repeat(+o['prompt-bytes']) }],
  });
  return { name, url, path: u.pathname + u.search, origin: u.origin, headers, body, pool: null };
});
const watches = (o.watch ?? []).map((w) => { const [name, pid] = w.split('='); return { name, pid: +pid }; });
for (const w of o['watch-cmd'] ?? []) { const i = w.indexOf('='); watches.push({ name: w.slice(0, i), pid: { cmd: w.slice(i + 1) } }); }

// ---------- /proc sampling ----------
const TCK = 100; // CLK_TCK on Linux
function cmdGroupCpuMs(sub) { // sum over matching live processes (a process that exits during a phase is not counted)
  let sum = 0; let dirs = []; try { dirs = readdirSync('/proc'); } catch { return NaN; }
  for (const d of dirs) { if (!/^\d+$/.test(d) || +d === process.pid) continue; try { if (readFileSync(`/proc/${d}/cmdline`, 'latin1').includes(sub)) sum += cpuMs(+d); } catch { /* gone */ } }
  return sum;
}
function cpuMs(pid) { if (typeof pid === 'object') return cmdGroupCpuMs(pid.cmd); try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8'); const p = f.slice(f.lastIndexOf(')') + 2).split(' '); return ((+p[11]) + (+p[12])) * 1000 / TCK; } catch { return NaN; } }
function sysBusy() { // aggregate /proc/stat: [busy ticks, total ticks] (all CPUs)
  try { const v = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number); const idle = v[3] + (v[4] || 0); const tot = v.reduce((x, y) => x + y, 0); return [tot - idle, tot]; } catch { return [NaN, NaN]; }
}
function rssMB(pid) { if (typeof pid === 'object') return NaN; try { const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')); return m ? +m[1] / 1024 : NaN; } catch { return NaN; } }

// ---------- stats ----------
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p / 100 * sorted.length))] : NaN);
function summarize(arr) {
  const s = Float64Array.from(arr).sort();
  let sum = 0; for (const v of s) sum += v;
  return { n: s.length, mean: s.length ? sum / s.length : NaN, p50: pct(s, 50), p90: pct(s, 90), p99: pct(s, 99), p999: pct(s, 99.9), max: s.length ? s[s.length - 1] : NaN };
}
const newRec = () => ({ ok: 0, err: {}, shed: 0, lat: [], co: [], hdr: [], ttfb: [], ttft: [], gap: [], pass: [], chunks: 0, incomplete: 0, bytes: 0, maxInflight: 0 });
const hr = () => Number(process.hrtime.bigint() / 1000n); // µs, CLOCK_MONOTONIC (comparable with the mock's stamps)
const STAMP_RE = /t=(\d+) /g;
const now = () => performance.now();

const SAMPLES = process.env.LOAD_SAMPLES ? [] : null;

// ---------- one request ----------
let inflight = 0;
async function one(t, rec, intended, record) {
  inflight++; if (inflight > rec.maxInflight) rec.maxInflight = inflight;
  const t1 = now();
  try {
    const { statusCode, body } = await t.pool.request({ method: 'POST', path: t.path, headers: t.headers, body: t.body });
    const tH = now();
    if (statusCode !== 200) { const txt = await body.text(); if (record) { const k = `http_${statusCode}`; rec.err[k] = (rec.err[k] ?? 0) + 1; rec.lastErr = txt.slice(0, 200); } return; }
    if (!STREAM) {
      const txt = await body.text(); const tE = now();
      if (!record) return;
      if (!txt.includes('"choices"')) { rec.err.bad_body = (rec.err.bad_body ?? 0) + 1; rec.lastErr = txt.slice(0, 200); return; }
      rec.ok++; rec.bytes += txt.length; rec.lat.push(tE - t1); if (intended) rec.co.push(tE - intended);
      if (SAMPLES) SAMPLES.push([t.name, Math.round((performance.timeOrigin + t1) * 10) / 10, Math.round((tE - t1) * 100) / 100]);
      return;
    }
    let first = 0; let firstTok = 0; let last = 0; let n = 0; let carry = ''; let done = false; const pass = [];
    for await (const buf of body) {
      const tc = now(); const us = hr();
      if (!first) first = tc; else if (record) rec.gap.push(tc - last);
      last = tc; n++;
      const s = carry + buf.toString('latin1'); const cut = s.lastIndexOf('\n') + 1; const full = s.slice(0, cut); carry = s.slice(cut);
      STAMP_RE.lastIndex = 0; let m;
      while ((m = STAMP_RE.exec(full))) { if (!firstTok) firstTok = tc; pass.push((us - +m[1]) / 1000); }
      if (!done && (full.includes('[DONE]') || full.includes('message_stop') || full.includes('"finishReason"'))) done = true; // OpenAI, Anthropic, Gemini
    }
    const tE = now();
    if (!record) return;
    if (!done) { rec.incomplete++; rec.err.incomplete = (rec.err.incomplete ?? 0) + 1; return; }
    rec.ok++; rec.chunks += n; rec.lat.push(tE - t1); if (intended) rec.co.push(tE - intended);
    rec.hdr.push(tH - t1); rec.ttfb.push(first - t1); if (firstTok) rec.ttft.push(firstTok - t1);
    for (const p of pass) rec.pass.push(p);
  } catch (e) {
    if (record) { const k = e.code ?? e.name ?? 'error'; rec.err[k] = (rec.err[k] ?? 0) + 1; rec.lastErr = String(e.message).slice(0, 200); }
  } finally { inflight--; }
}

// ---------- a phase: warmup (discarded) + measured part ----------
function openLoop(t, rec, ms, record) {
  const interval = 1000 / RATE; const maxReq = Math.min(+(o['max-requests'] ?? Infinity), Math.ceil(RATE * ms / 1000));
  const pending = new Set(); let i = 0; const t0 = now(); const end = t0 + ms;
  return new Promise((resolve) => {
    const tick = () => {
      const tn = now(); const due = Math.min(maxReq, Math.floor((Math.min(tn, end) - t0) / interval) + 1);
      while (i < due) {
        const intended = t0 + i * interval; i++;
        if (inflight >= MAX_INFLIGHT) { if (record) rec.shed++; continue; }
        const p = one(t, rec, intended, record); pending.add(p); p.finally(() => pending.delete(p));
      }
      if (tn < end && i < maxReq) setTimeout(tick, 1);
      else resolve(Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, TIMEOUT + 1000).unref())]));
    };
    tick();
  });
}
async function closedLoop(t, rec, ms, record) {
  const end = now() + ms; const maxReq = +(o['max-requests'] ?? 1e7); let issued = 0;
  const worker = async (k) => {
    if (RAMP) await new Promise((r) => setTimeout(r, (k * RAMP) / CONC));
    while (now() < end && issued < maxReq) { issued++; await one(t, rec, 0, record); }
  };
  await Promise.race([Promise.all(Array.from({ length: CONC }, (_, k) => worker(k))), new Promise((r) => setTimeout(r, ms + TIMEOUT + 1000).unref())]);
}

async function phase(t) {
  if (!t.pool) t.pool = new Pool(t.origin, { connections: CONNS, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: TIMEOUT, bodyTimeout: TIMEOUT });
  const run = RATE ? openLoop : closedLoop;
  if (WARM) await run(t, newRec(), WARM, false);
  const rec = newRec();
  const cpu0 = watches.map((w) => cpuMs(w.pid)); const me0 = process.cpuUsage(); const sys0 = sysBusy();
  const rss = watches.map((w) => rssMB(w.pid)); const rss0 = [...rss];
  const sampler = setInterval(() => watches.forEach((w, j) => { rss[j] = Math.max(rss[j], rssMB(w.pid)); }), 200);
  const eld = monitorEventLoopDelay({ resolution: 5 }); eld.enable();
  const t0 = now(); await run(t, rec, DUR, true); const el = (now() - t0) / 1000;
  clearInterval(sampler); eld.disable();
  watches.forEach((w, j) => { rss[j] = Math.max(rss[j], rssMB(w.pid)); });
  const done = rec.ok + Object.values(rec.err).reduce((a, b) => a + b, 0);
  rec.done = done;
  const me = process.cpuUsage(me0);
  rec.elapsed = el; rec.rps = rec.ok / el;
  rec.watch = Object.fromEntries(watches.map((w, j) => [w.name, { cpuMs: cpuMs(w.pid) - cpu0[j], cpuUsPerReq: ((cpuMs(w.pid) - cpu0[j]) * 1000) / Math.max(1, done), cpuPct: (cpuMs(w.pid) - cpu0[j]) / (el * 10), rssStartMB: rss0[j], rssMaxMB: rss[j] }]));
  rec.client = { cpuPct: (me.user + me.system) / 1e4 / el, loopDelayP99ms: Math.max(0, eld.percentile(99) / 1e6 - 5) }; // histogram holds raw 5 ms intervals
  // CPU used on the machine by anything that is neither this driver nor a watched process (other jobs = noise), in % of one core
  const sys1 = sysBusy(); const ncpu = (readFileSync('/proc/stat', 'utf8').match(/^cpu\d+ /gm)?.length ?? 1);
  const sysPct = ((sys1[0] - sys0[0]) / (sys1[1] - sys0[1])) * 100 * ncpu;
  rec.foreignCpuPct = Math.max(0, sysPct - rec.client.cpuPct - Object.values(rec.watch).reduce((x, w) => x + (w.cpuPct || 0), 0));
  return rec;
}

function merge(a, b) {
  if (!a) return b;
  a.foreignCpuPct = Math.max(a.foreignCpuPct ?? 0, b.foreignCpuPct ?? 0);
  a.ok += b.ok; a.done += b.done; a.shed += b.shed; a.chunks += b.chunks; a.incomplete += b.incomplete; a.bytes += b.bytes; a.elapsed += b.elapsed;
  a.maxInflight = Math.max(a.maxInflight, b.maxInflight);
  for (const [k, v] of Object.entries(b.err)) a.err[k] = (a.err[k] ?? 0) + v;
  for (const k of ['lat', 'co', 'hdr', 'ttfb', 'ttft', 'gap', 'pass']) for (const v of b[k]) a[k].push(v);
  for (const [k, v] of Object.entries(b.watch)) { const w = a.watch[k]; w.cpuMs += v.cpuMs; w.rssMaxMB = Math.max(w.rssMaxMB, v.rssMaxMB); w.rssStartMB = Math.min(w.rssStartMB, v.rssStartMB); }
  a.client.cpuPct = Math.max(a.client.cpuPct, b.client.cpuPct); a.client.loopDelayP99ms = Math.max(a.client.loopDelayP99ms, b.client.loopDelayP99ms);
  return a;
}

const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const mode = `${STREAM ? 'stream' : 'non-stream'} ${RATE ? `open-loop ${RATE} req/s` : `closed-loop ${CONC} concurrent`}, ${ROUNDS} round(s) x ${DUR / 1000}s (+${WARM / 1000}s warmup)`;
if (!o.quiet) console.log(`== ${o.label ? o.label + ': ' : ''}${mode} ==`);
const totals = {}; const perRound = [];
for (let r = 0; r < ROUNDS; r++) {
  for (const t of (r % 2 ? [...targets].reverse() : targets)) { // ABBA order cancels drift
    let rec = await phase(t);
    // shared machine: if other jobs used more than --max-noise % of a core during the phase, pause and redo it (bounded)
    for (let k = 0; k < +o['noise-retries'] && rec.foreignCpuPct > +o['max-noise']; k++) {
      if (!o.quiet) console.log(`  round ${r + 1} ${t.name}: other jobs used ${f(rec.foreignCpuPct, 0)}% CPU, redoing the phase`);
      await new Promise((res) => setTimeout(res, 5000));
      rec = await phase(t);
    }
    const l = summarize(rec.lat);
    const pr = { round: r, target: t.name, rps: rec.rps, p50: l.p50, p99: l.p99, err: rec.err, watch: rec.watch, foreignCpuPct: rec.foreignCpuPct };
    if (STREAM) { const tt = summarize(rec.ttft); const pa = summarize(rec.pass); Object.assign(pr, { ttft50: tt.p50, ttft99: tt.p99, pass50: pa.p50, pass99: pa.p99 }); }
    perRound.push(pr);
    if (!o.quiet) console.log(`  round ${r + 1} ${t.name.padEnd(10)} ok=${rec.ok} err=${JSON.stringify(rec.err)}${rec.shed ? ' shed=' + rec.shed : ''} rps=${f(rec.rps, 1)} p50=${f(l.p50)}ms p99=${f(l.p99)}ms` +
      (STREAM ? ` ttft50=${f(pr.ttft50)} ttft99=${f(pr.ttft99)} pass50=${f(pr.pass50, 3)} pass99=${f(pr.pass99, 3)}` : '') +
      ` ${Object.entries(rec.watch).filter(([k]) => k === t.name || k === 'mock').map(([k, v]) => `${k}:cpu=${f(v.cpuPct, 0)}%,${f(v.cpuUsPerReq, 0)}us/req,rss=${f(v.rssMaxMB, 0)}MB`).join(' ')} client:cpu=${f(rec.client.cpuPct, 0)}%,lag99=${f(rec.client.loopDelayP99ms, 1)}ms other:cpu=${f(rec.foreignCpuPct, 0)}%${rec.foreignCpuPct > 15 ? ' (NOISY: other jobs on the machine)' : ''}` +
      `${rec.lastErr ? ' lastErr=' + JSON.stringify(rec.lastErr) : ''}`);
    totals[t.name] = merge(totals[t.name], rec);
  }
}
for (const t of targets) await t.pool?.destroy().catch(() => {});

// ---------- report ----------
const res = { mode, stream: STREAM, rate: RATE, concurrency: CONC, durationS: DUR / 1000, rounds: ROUNDS, label: o.label, targets: {}, perRound };
for (const t of targets) {
  const x = totals[t.name];
  const s = { ok: x.ok, err: x.err, shed: x.shed, rps: x.ok / x.elapsed, maxInflight: x.maxInflight, maxForeignCpuPct: x.foreignCpuPct, lat: summarize(x.lat), co: summarize(x.co), watch: {}, client: x.client };
  for (const [k, v] of Object.entries(x.watch)) s.watch[k] = { cpuPct: v.cpuMs / (x.elapsed * 10), cpuUsPerReq: (v.cpuMs * 1000) / Math.max(1, x.done), rssStartMB: v.rssStartMB, rssMaxMB: v.rssMaxMB };
  if (STREAM) Object.assign(s, { hdr: summarize(x.hdr), ttfb: summarize(x.ttfb), ttft: summarize(x.ttft), gap: summarize(x.gap), pass: summarize(x.pass), chunksPerStream: x.chunks / Math.max(1, x.ok) });
  res.targets[t.name] = s;
}
const base = res.targets[targets[0].name];
const rows = [];
for (const [name, s] of Object.entries(res.targets)) {
  const row = { target: name, ok: s.ok, errors: Object.values(s.err).reduce((a, b) => a + b, 0) + s.shed, rps: f(s.rps, 1), p50: f(s.lat.p50), p99: f(s.lat.p99), 'p99.9': f(s.lat.p999) };
  if (RATE) row['co_p99'] = f(s.co.p99);
  if (STREAM) Object.assign(row, { ttfb50: f(s.ttfb.p50), ttfb99: f(s.ttfb.p99), ttft50: f(s.ttft.p50), ttft99: f(s.ttft.p99), pass50: f(s.pass.p50, 3), pass99: f(s.pass.p99, 3), gap99: f(s.gap.p99) });
  if (name !== targets[0].name) {
    const k = STREAM ? 'ttft' : 'lat';
    row['Δp50 ms'] = f(s[k].p50 - base[k].p50, 3); row['Δp99 ms'] = f(s[k].p99 - base[k].p99, 3);
    row['x p50'] = f(s[k].p50 / base[k].p50); row['x p99'] = f(s[k].p99 / base[k].p99);
    s.overhead = { metric: k, dP50ms: s[k].p50 - base[k].p50, dP99ms: s[k].p99 - base[k].p99, ratioP50: s[k].p50 / base[k].p50, ratioP99: s[k].p99 / base[k].p99 };
    if (STREAM) { s.overhead.dPass50ms = s.pass.p50 - base.pass.p50; s.overhead.dPass99ms = s.pass.p99 - base.pass.p99; }
  }
  const own = s.watch[name]; // a watched process named like the target = the gateway under test
  if (own) { row['cpu%'] = f(own.cpuPct, 0); row['cpu us/req'] = f(own.cpuUsPerReq, 0); row['rss MB'] = f(own.rssMaxMB, 0); row['rss0 MB'] = f(own.rssStartMB, 0); }
  if (s.watch.mock) row['mock cpu%'] = f(s.watch.mock.cpuPct, 0);
  row['client cpu%'] = f(s.client.cpuPct, 0);
  row['other cpu% (max)'] = f(s.maxForeignCpuPct, 0);
  rows.push(row);
}
if (!o.quiet) {
  console.log('  latency in ms' + (STREAM ? '; Δ/x columns compare ttft (first content chunk) with the first target; pass = per-chunk pass-through delay' : '; Δ/x columns compare with the first target'));
  console.table(rows);
  for (const [name, s] of Object.entries(res.targets)) {
    if (!s.overhead) continue; const v = s.overhead;
    console.log(`  OVERHEAD ${name} vs ${targets[0].name} (${v.metric}): p50 +${f(v.dP50ms, 3)} ms (x${f(v.ratioP50)}), p99 +${f(v.dP99ms, 3)} ms (x${f(v.ratioP99)})` +
      (STREAM ? `; per-chunk pass-through p50 +${f(v.dPass50ms, 3)} ms, p99 +${f(v.dPass99ms, 3)} ms` : '') +
      (s.watch[name] ? `; gateway cpu ${f(s.watch[name].cpuUsPerReq, 0)} us/req, rss ${f(s.watch[name].rssStartMB, 0)} -> peak ${f(s.watch[name].rssMaxMB, 0)} MB` : '') +
      (s.maxInflight ? `; max in flight ${s.maxInflight}` : ''));
  }
}
if (o.json) writeFileSync(o.json, JSON.stringify(res, null, 1));
if (SAMPLES) writeFileSync(`${process.env.LOAD_SAMPLES}/${(o.label ?? 'load').replace(/[^\w.-]+/g, '_')}.json`, JSON.stringify(SAMPLES));
process.exit(0);
