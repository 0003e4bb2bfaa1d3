// The benchmark's markdown report: one table per database, PASS/FAIL against the targets.
export const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const pm = (v, d = 2) => (Number.isFinite(v) ? (v >= 0 ? '+' : '') + v.toFixed(d) : '-');
const verdict = (ok) => (ok === undefined ? '' : ok ? '**PASS**' : '**FAIL**');

export function table(r, pgSat, { TARGETS, STREAMS, MEM_STREAMS }) {
  const name = r.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite';
  const lines = [`### ${name}`, ''];
  if (r.skipped) return [...lines, `Skipped: ${r.skipped}`, ''].join('\n');
  if (r.error) lines.push(`Run failed: ${r.error}`, '');
  lines.push('| measurement | direct (mock) | through Switchboard | added | target | result |', '|---|---|---|---|---|---|');
  for (const [rate, x] of Object.entries(r.nonstream ?? {})) {
    const errs = x.switchboard.errors ? `, ${x.switchboard.errors} errors` : '';
    const noisy = x.noisy > 25 ? ' (noisy machine)' : '';
    const at500 = +rate === 500;
    lines.push(`| non-stream ${rate} req/s, p50 ms | ${f(x.direct.p50)} | ${f(x.switchboard.p50)} | ${pm(x.addedP50)} | ${at500 ? `≤ ${TARGETS.p50At500}` : ''} | ${at500 ? verdict(x.addedP50 <= TARGETS.p50At500 && !x.switchboard.errors) : ''}${errs}${noisy} |`);
    lines.push(`| non-stream ${rate} req/s, p99 ms | ${f(x.direct.p99)} | ${f(x.switchboard.p99)} | ${pm(x.addedP99)} | ${at500 ? `≤ ${TARGETS.p99At500}` : ''} | ${at500 ? verdict(x.addedP99 <= TARGETS.p99At500 && !x.switchboard.errors) : ''} |`);
  }
  if (r.nonstream) {
    const rates = Object.keys(r.nonstream);
    const cpu = rates.map((k) => f(r.nonstream[k].switchboard.cpuUsPerReq, 0)).join(' / ');
    const pgCpu = rates.map((k) => f(r.nonstream[k].switchboard.pgCpuUsPerReq, 0)).join(' / ');
    lines.push(`| Switchboard CPU per request at ${rates.join(' / ')} req/s, µs | | ${cpu} | | | |`);
    if (r.kind === 'postgres') lines.push(`| PostgreSQL backends' CPU per request, µs | | ${pgCpu} | | | |`);
    lines.push(`| other processes' CPU during these phases (max, % of one core) | | ${rates.map((k) => f(r.nonstream[k].noisy, 0)).join(' / ')} | | | |`);
  }
  if (r.saturation) {
    const s = r.saturation.switchboard;
    const errs = s.errors ? ` (${s.errors} errors)` : '';
    lines.push(`| saturation, req/s (${s.tool}) | ${r.saturation.direct ? f(r.saturation.direct.rps, 0) : '-'} | ${f(s.rps, 0)}${errs} | | ≥ ${TARGETS.saturation} | ${verdict(s.rps >= TARGETS.saturation && !(s.errors > s.total * 0.001))} |`);
    if (r.kind === 'pglite' && pgSat) {
      const share = s.rps / pgSat;
      lines.push(`| saturation vs PostgreSQL | | ${f(share * 100, 0)} % of ${f(pgSat, 0)} req/s | | ≥ ${TARGETS.pgliteShare * 100} % | ${verdict(share >= TARGETS.pgliteShare)} |`);
    }
  }
  if (r.stream) {
    const x = r.stream;
    const errs = x.switchboard.errors ? `, ${x.switchboard.errors} errors` : '';
    lines.push(`| stream ×${STREAMS}: TTFT p50 ms | ${f(x.direct.ttftP50)} | ${f(x.switchboard.ttftP50)} | ${pm(x.addedTtftP50)} | ≤ ${TARGETS.ttftP50} | ${verdict(x.addedTtftP50 <= TARGETS.ttftP50 && !x.switchboard.errors)}${errs} |`);
    lines.push(`| stream ×${STREAMS}: TTFT p99 ms | ${f(x.direct.ttftP99)} | ${f(x.switchboard.ttftP99)} | ${pm(x.addedTtftP99)} | | |`);
    lines.push(`| stream ×${STREAMS}: per-chunk pass-through p50 ms | ${f(x.direct.passP50, 3)} | ${f(x.switchboard.passP50, 3)} | ${pm(x.addedPassP50, 3)} | | |`);
    lines.push(`| stream ×${STREAMS}: per-chunk pass-through p99 ms | ${f(x.direct.passP99, 3)} | ${f(x.switchboard.passP99, 3)} | ${pm(x.addedPassP99, 3)} | | |`);
  }
  if (r.memory) {
    const m = r.memory;
    const errs = m.errors ? `, ${m.errors} errors` : '';
    lines.push(`| memory, ${m.maxInFlight} open streams: RSS MB at rest → peak | | ${f(m.rssBeforeMB, 0)} → ${f(m.rssPeakMB, 0)} | | | |`);
    lines.push(`| memory per open stream, KB | | ${f(m.kbPerStream, 0)} | | ≤ ${TARGETS.memKBPerStream} | ${verdict(m.kbPerStream <= TARGETS.memKBPerStream && m.maxInFlight >= MEM_STREAMS * 0.95 && !m.errors)}${errs} |`);
  }
  lines.push('');
  return lines.join('\n');
}
