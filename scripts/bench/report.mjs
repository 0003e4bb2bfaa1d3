// The benchmark's markdown report: per database, the measurements, then every target with PASS/FAIL.
export const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const pm = (v, d = 2) => (Number.isFinite(v) ? (v >= 0 ? '+' : '') + v.toFixed(d) : '-');
const verdict = (ok) => (ok ? '**PASS**' : '**FAIL**');

/** Targets of this database's run: [issue, what, measured (text), limit (text), ok] — only those whose phase ran. */
function targets(r, pgSat, { TARGETS: T, MEM_STREAMS, FRESH_AFTER_S }) {
  const pg = r.kind === 'postgres';
  const out = [];
  const ns = (rate) => r.nonstream?.[rate];
  const at500 = ns(500);
  if (at500) {
    const clean = !at500.switchboard.errors;
    out.push(['3', 'non-stream 500 req/s, added p50', `${pm(at500.addedP50)} ms`, `≤ ${T.p50At500} ms`, clean && at500.addedP50 <= T.p50At500]);
    out.push(['3', 'non-stream 500 req/s, added p99', `${pm(at500.addedP99)} ms`, `≤ ${T.p99At500} ms`, clean && at500.addedP99 <= T.p99At500]);
    if (pg) out.push(['12', 'non-stream 500 req/s, added p99', `${pm(at500.addedP99)} ms`, `≤ ${T.pgP99At500} ms`, clean && at500.addedP99 <= T.pgP99At500]);
  }
  if (r.routing) {
    const clean = !r.routing.switchboard.errors;
    out.push(['13', 'routed (2 endpoints × 2 keys) 500 req/s, added p50', `${pm(r.routing.addedP50)} ms`, `≤ ${T.p50At500} ms`, clean && r.routing.addedP50 <= T.p50At500]);
    out.push(['13', 'routed (2 endpoints × 2 keys) 500 req/s, added p99', `${pm(r.routing.addedP99)} ms`, `≤ ${pg ? T.pgP99At500 : T.p99At500} ms`, clean && r.routing.addedP99 <= (pg ? T.pgP99At500 : T.p99At500)]);
  }
  const at1000 = ns(1000);
  if (pg && at1000) out.push(['12', 'non-stream 1,000 req/s, added p99', `${pm(at1000.addedP99)} ms`, `≤ ${T.pgP99At1000} ms`, !at1000.switchboard.errors && at1000.addedP99 <= T.pgP99At1000]);
  if (r.oneCore && !r.oneCore.skipped) {
    out.push(['12', 'non-stream 500 req/s, server and database thread on one core, added p99', `${pm(r.oneCore.addedP99)} ms`, `≤ ${T.pgliteOneCoreP99At500} ms`, !r.oneCore.switchboard.errors && r.oneCore.addedP99 <= T.pgliteOneCoreP99At500]);
  }
  if (r.saturation) {
    const s = r.saturation.switchboard;
    out.push(['3', 'saturation', `${f(s.rps, 0)} req/s`, `≥ ${T.saturation} req/s`, s.rps >= T.saturation && !(s.errors > s.total * 0.001)]);
    if (!pg && pgSat) out.push(['3', 'saturation vs PostgreSQL', `${f((s.rps / pgSat) * 100, 0)} %`, `≥ ${T.pgliteShare * 100} %`, s.rps / pgSat >= T.pgliteShare]);
  }
  if (r.stream && pg) out.push(['3', `stream ×200 (warm server), added TTFT p50`, `${pm(r.stream.addedTtftP50)} ms`, `≤ ${T.ttftP50} ms`, !r.stream.switchboard.errors && r.stream.addedTtftP50 <= T.ttftP50]);
  if (r.fresh && pg) out.push(['12', `stream ×200 on a server started ${FRESH_AFTER_S} s earlier, added TTFT p50`, `${pm(r.fresh.addedTtftP50)} ms`, `≤ ${T.freshTtftP50} ms`, !r.fresh.errors && r.fresh.addedTtftP50 <= T.freshTtftP50]);
  if (!pg && Number.isFinite(r.rssAfterMB) && (r.nonstream || r.saturation || r.stream)) out.push(['12', 'RSS at rest after the load phases', `${f(r.rssAfterMB, 0)} MB`, `≤ ${T.pgliteRssMB} MB`, r.rssAfterMB <= T.pgliteRssMB]);
  if (r.observability) {
    const o = r.observability;
    out.push(['17', `metrics + request logs: CPU per chat request, on vs off (${o.rate} req/s)`, `${pm(o.overheadPct, 1)} % (${f(o.onUsPerReq, 0)} vs ${f(o.offUsPerReq, 0)} µs)`, `≤ ${T.observabilityPct} %`, !o.errors && o.overheadPct <= T.observabilityPct]);
  }
  if (r.memory) {
    const m = r.memory;
    out.push(['3', 'memory per open stream', `${f(m.kbPerStream, 0)} KB`, `≤ ${T.memKBPerStream} KB`, m.kbPerStream <= T.memKBPerStream && m.maxInFlight >= MEM_STREAMS * 0.95 && !m.errors]);
  }
  return out;
}

export function table(r, pgSat, opts) {
  const { STREAMS } = opts;
  const name = r.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite';
  const lines = [`### ${name}`, ''];
  if (r.skipped) return [...lines, `Skipped: ${r.skipped}`, ''].join('\n');
  if (r.error) lines.push(`Run failed: ${r.error}`, '');
  lines.push('| measurement | direct (mock) | through Switchboard | added |', '|---|---|---|---|');
  const nsRows = (label, x) => {
    const errs = x.switchboard.errors ? `, ${x.switchboard.errors} errors` : '';
    const noisy = x.noisy > 25 ? ' (noisy machine)' : '';
    lines.push(`| ${label}, p50 ms | ${f(x.direct.p50)} | ${f(x.switchboard.p50)}${errs}${noisy} | ${pm(x.addedP50)} |`);
    lines.push(`| ${label}, p99 ms | ${f(x.direct.p99)} | ${f(x.switchboard.p99)} | ${pm(x.addedP99)} |`);
  };
  for (const [rate, x] of Object.entries(r.nonstream ?? {})) nsRows(`non-stream ${rate} req/s`, x);
  if (r.nonstream) {
    const rates = Object.keys(r.nonstream);
    const cpu = rates.map((k) => f(r.nonstream[k].switchboard.cpuUsPerReq, 0)).join(' / ');
    lines.push(`| Switchboard CPU per request at ${rates.join(' / ')} req/s, µs | | ${cpu} | |`);
    if (r.kind === 'postgres') lines.push(`| PostgreSQL backends' CPU per request, µs | | ${rates.map((k) => f(r.nonstream[k].switchboard.pgCpuUsPerReq, 0)).join(' / ')} | |`);
    lines.push(`| other processes' CPU during these phases (max, % of one core) | | ${rates.map((k) => f(r.nonstream[k].noisy, 0)).join(' / ')} | |`);
  }
  if (r.routing) {
    nsRows('routed: 2 endpoints × 2 keys, 500 req/s', r.routing);
    lines.push(`| routed: Switchboard CPU per request, µs (one-endpoint model at 500 req/s) | | ${f(r.routing.switchboard.cpuUsPerReq, 0)} (${f(r.nonstream?.[500]?.switchboard.cpuUsPerReq, 0)}) | |`);
  }
  if (r.oneCore?.skipped) lines.push(`| non-stream 500 req/s on one core | | not run: ${r.oneCore.skipped} | |`);
  else if (r.oneCore) nsRows('non-stream 500 req/s, server + database thread on one core', r.oneCore);
  if (r.saturation) {
    const s = r.saturation.switchboard;
    lines.push(`| saturation, req/s (${s.tool}) | ${r.saturation.direct ? f(r.saturation.direct.rps, 0) : '-'} | ${f(s.rps, 0)}${s.errors ? ` (${s.errors} errors)` : ''} | |`);
  }
  if (r.stream) {
    const x = r.stream;
    lines.push(`| stream ×${STREAMS}: TTFT p50 ms | ${f(x.direct.ttftP50)} | ${f(x.switchboard.ttftP50)}${x.switchboard.errors ? `, ${x.switchboard.errors} errors` : ''} | ${pm(x.addedTtftP50)} |`);
    lines.push(`| stream ×${STREAMS}: TTFT p99 ms | ${f(x.direct.ttftP99)} | ${f(x.switchboard.ttftP99)} | ${pm(x.addedTtftP99)} |`);
    lines.push(`| stream ×${STREAMS}: per-chunk pass-through p50 / p99 ms | ${f(x.direct.passP50, 3)} / ${f(x.direct.passP99, 3)} | ${f(x.switchboard.passP50, 3)} / ${f(x.switchboard.passP99, 3)} | ${pm(x.addedPassP50, 3)} / ${pm(x.addedPassP99, 3)} |`);
  }
  if (r.observability) {
    const o = r.observability;
    const legs = o.legs.map((l) => `${l.mode} ${f(l.cpuUsPerReq, 0)}`).join(', ');
    lines.push(`| Switchboard CPU per request, metrics + request logs on / off (legs: ${legs}), µs | | ${f(o.onUsPerReq, 0)} / ${f(o.offUsPerReq, 0)}${o.errors ? `, ${o.errors} errors` : ''}${o.noisy > 25 ? ' (noisy machine)' : ''} | ${pm(o.overheadPct, 1)} % |`);
  }
  if (r.workers) {
    const [one, two] = r.workers.legs;
    lines.push(`| saturation, nothing pinned (wrk -t2 -c64): WORKERS=1 / WORKERS=2, req/s | | ${f(one.rps, 0)} / ${f(two.rps, 0)}${one.errors + two.errors ? `, ${one.errors + two.errors} errors` : ''} | ${f(r.workers.ratio, 2)}× |`);
  }
  if (Number.isFinite(r.rssAfterMB)) lines.push(`| server RSS at rest after the load phases, MB | | ${f(r.rssAfterMB, 0)} | |`);
  if (r.fresh) {
    const x = r.fresh;
    lines.push(`| stream ×${STREAMS} on a server started ${f(x.startedS, 1)} s earlier: TTFT p50 / p99 ms | ${f(x.directTtftP50)} (p50) | ${f(x.ttftP50)} / ${f(x.ttftP99)}${x.errors ? `, ${x.errors} errors` : ''} | ${pm(x.addedTtftP50)} (p50) |`);
  }
  if (r.memory) {
    const m = r.memory;
    lines.push(`| memory, ${m.maxInFlight} open streams: RSS MB at rest → peak | | ${f(m.rssBeforeMB, 0)} → ${f(m.rssPeakMB, 0)}${m.errors ? `, ${m.errors} errors` : ''} | |`);
    lines.push(`| memory per open stream, KB | | ${f(m.kbPerStream, 0)} | |`);
  }
  const t = targets(r, pgSat, opts);
  if (t.length) {
    lines.push('', '| issue | target | measured | limit | result |', '|---|---|---|---|---|');
    for (const [issue, what, measured, limit, ok] of t) lines.push(`| ${issue} | ${what} | ${measured} | ${limit} | ${verdict(ok)} |`);
  }
  lines.push('');
  return lines.join('\n');
}
