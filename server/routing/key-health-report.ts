// What `npm run cli -- upstream:health` shows: every provider key of the running server with its health
// (state, time left, consecutive failures, last error), as JSON-able data and as a table. Built from the
// server's routing table and KeyHealth; or, when no server runs, from the state instances stored in Redis.
import type { KeyHealth, KeyHealthView, KeyState } from './key-health';
import type { HealthChange } from './redis-health-sync';
import type { RoutingTable } from './routing-table';

export interface KeyHealthRow {
  id: string;
  ref: string;
  weight: number | null;
  state: KeyState;
  /** ISO time when cooling or open ends. */
  until: string | null;
  seconds_left: number | null;
  /** null from Redis: failure counts are each instance's own and not shared. */
  consecutive_failures: number | null;
  last_error: string | null;
}

export interface ProviderHealthReport {
  id: string;
  type: string | null;
  enabled: boolean | null;
  configured: boolean | null;
  /** Why an unconfigured provider is skipped (e.g. its key variable is unset). */
  missing: string | null;
  keys: KeyHealthRow[];
}

export interface KeyHealthReport {
  source: 'server' | 'redis';
  at: string;
  providers: ProviderHealthReport[];
}

function row(id: string, weight: number | null, view: KeyHealthView, now: number): KeyHealthRow {
  return {
    id,
    ref: view.ref,
    weight,
    state: view.state,
    until: view.until === null ? null : new Date(view.until).toISOString(),
    seconds_left: view.until === null ? null : Math.max(0, Math.ceil((view.until - now) / 1000)),
    consecutive_failures: view.consecutiveFailures,
    last_error: view.lastError,
  };
}

/** Splits `<provider>/<key>` (provider ids have no slash). */
function splitRef(ref: string): { provider: string; key: string } {
  const slash = ref.indexOf('/');
  return slash === -1 ? { provider: ref, key: ref } : { provider: ref.slice(0, slash), key: ref.slice(slash + 1) };
}

/** Keys the health state knows but the table does not (removed from the configuration, or another instance's). */
function unlisted(views: KeyHealthView[], known: Set<string>, now: number): ProviderHealthReport[] {
  const byProvider = new Map<string, KeyHealthRow[]>();
  for (const view of views) {
    if (known.has(view.ref)) continue;
    const { provider, key } = splitRef(view.ref);
    const rows = byProvider.get(provider) ?? [];
    rows.push(row(key, null, view, now));
    byProvider.set(provider, rows);
  }
  return [...byProvider].map(([id, keys]) => ({ id, type: null, enabled: null, configured: null, missing: null, keys }));
}

/** The running server's view: every provider of its table with every key, then keys it tracks outside the table. */
export function reportKeyHealth(table: RoutingTable, health: KeyHealth, now = Date.now()): KeyHealthReport {
  const known = new Set<string>();
  const providers: ProviderHealthReport[] = [...table.providers.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((p) => ({
      id: p.id,
      type: p.type,
      enabled: p.enabled,
      configured: p.configured,
      missing: p.missing ?? null,
      keys: p.keys.map((k) => {
        known.add(k.ref);
        return row(k.id, k.weight, health.view(k.ref), now);
      }),
    }));
  return { source: 'server', at: new Date(now).toISOString(), providers: [...providers, ...unlisted(health.snapshot(), known, now)] };
}

/** The state as stored in Redis, for when no server runs here: only keys that were not healthy at their last change. */
export function reportStoredHealth(changes: HealthChange[], now = Date.now()): KeyHealthReport {
  const views = changes.map((c): KeyHealthView => {
    // Time-driven transitions are not stored (every instance reaches them on its own): apply them here.
    const ended = c.until !== null && now >= c.until;
    const state: KeyState = !ended ? c.state : c.state === 'open' || c.probeAfter ? 'half_open' : 'healthy';
    return { ref: c.ref, state, until: ended ? null : c.until, consecutiveFailures: 0, lastError: c.lastError };
  });
  const providers = unlisted(views, new Set(), now).map((p) => ({ ...p, keys: p.keys.map((k) => ({ ...k, consecutive_failures: null })) }));
  return { source: 'redis', at: new Date(now).toISOString(), providers };
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

function stateText(r: KeyHealthRow): string {
  if (r.state === 'cooling' || r.state === 'open') return `${r.state} ${duration(r.seconds_left ?? 0)}`;
  return r.state === 'half_open' ? 'half-open (next request probes)' : 'healthy';
}

function providerLine(p: ProviderHealthReport): string {
  if (p.type === null) return `${p.id} (not in this configuration)`;
  const notes = [p.type, ...(p.enabled === false ? ['disabled'] : []), ...(p.configured === false ? [`not configured${p.missing ? `: ${p.missing}` : ''}`] : [])];
  return `${p.id} (${notes.join(', ')})`;
}

/** The report as a table per provider. */
export function formatKeyHealthReport(report: KeyHealthReport): string {
  const lines: string[] =
    report.source === 'server'
      ? [`Provider keys in the running server, ${report.at}:`]
      : ['No Switchboard server is running here. Key health as the instances stored it in Redis (keys not listed are healthy):'];
  if (report.providers.length === 0) lines.push('', report.source === 'server' ? '  No providers are configured.' : '  Every key is healthy.');
  const header = { id: 'KEY', state: 'STATE', failures: 'FAILURES', error: 'LAST ERROR' };
  for (const p of report.providers) {
    lines.push('', providerLine(p));
    if (p.keys.length === 0) {
      lines.push('  no keys (nothing to track)');
      continue;
    }
    const cells = p.keys.map((k) => ({ id: k.id, state: stateText(k), failures: k.consecutive_failures === null ? '-' : String(k.consecutive_failures), error: k.last_error ?? '-' }));
    const width = (col: 'id' | 'state' | 'failures') => Math.max(header[col].length, ...cells.map((c) => c[col].length));
    const [w1, w2, w3] = [width('id'), width('state'), width('failures')];
    for (const c of [header, ...cells]) lines.push(`  ${c.id.padEnd(w1)}  ${c.state.padEnd(w2)}  ${c.failures.padStart(w3)}  ${c.error}`.trimEnd());
  }
  return lines.join('\n');
}
