// Health of each provider key (by its ref, `<provider>/<key>`), read on every chat request to choose a key:
// - a 429 cools the key for its Retry-After (capped at 10 min), or cooldownMs when it gave none; then all
//   traffic resumes (the provider said when);
// - a 401/403 cools it for authCooldownMs (a revoked key must not get traffic), then ONE probe request
//   goes before the rest: a key that is still revoked fails one request per cooldown, not a burst;
// - failureThreshold consecutive failures (5xx, overload, timeout, connection error) open its circuit for
//   openMs; then it is half_open: exactly one probe may go. The probe's success closes the circuit; its failure
//   reopens it for twice as long as the last time (openMs, 2×, 4×… up to maxOpenMs), so a provider that
//   stays down gets one probe per few minutes instead of one per openMs.
// Everything is synchronous and O(1) on in-memory state; a key that never failed has no entry at all, so
// the healthy path allocates nothing. With a Redis URL the state changes are shared (redis-health-sync.ts);
// time-driven transitions (a cooldown that ends) are not messages: `until` is absolute and every instance
// reaches it on its own.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { RedisHealthSync, type HealthChange } from './redis-health-sync';

export type KeyState = 'healthy' | 'cooling' | 'open' | 'half_open';

export interface KeyHealthView {
  ref: string;
  state: KeyState;
  /** ms epoch when cooling or open ends; null otherwise. */
  until: number | null;
  consecutiveFailures: number;
  lastError: string | null;
}

export interface KeyHealthOptions {
  /** Shares state changes with other instances; undefined or null: this instance's memory only. */
  redisUrl?: string | null;
  /** Namespace of the Redis channel and hash (default `switchboard`). */
  redisKeyPrefix?: string;
  /** Names this instance in Redis messages (its own are not applied twice); default host:pid:random. */
  instanceId?: string;
  /** Cooldown after a 429 without Retry-After; default 30 s. */
  cooldownMs?: number;
  /** Consecutive 5xx/timeouts that open the circuit; default 3. */
  failureThreshold?: number;
  /** How long a circuit first stays open; default 30 s. */
  openMs?: number;
  /** Longest a circuit stays open after repeated failed probes; default 5 min. */
  maxOpenMs?: number;
  /** Cooldown after a 401/403; default 5 min. */
  authCooldownMs?: number;
  /** A probe that has neither ended nor been released after this long is taken as lost: another may go; default 60 s. */
  probeTimeoutMs?: number;
  now?: () => number;
  /** Every state change (not failure counts), from this instance or another: for logs and tests. */
  onChange?: (view: KeyHealthView, origin: 'local' | 'remote') => void;
  /** Where the one "Redis unavailable" line goes; default console.error. */
  log?: (message: string) => void;
}

/** The longest Retry-After honoured: a provider asking for hours should not take a key away for hours. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** Retry-After for a key whose probe is under way: it is usually answered within a second or two. */
const PROBE_RETRY_MS = 1_000;

interface Entry {
  ref: string;
  state: KeyState;
  until: number;
  /** A cooling that ends in half_open (auth failures) rather than healthy. */
  probeAfter: boolean;
  consecutiveFailures: number;
  lastError: string | null;
  /** When this instance's half-open probe went; 0 = none in flight. */
  probeAt: number;
  /** Times the circuit opened in a row (the doubling of openMs). */
  opens: number;
  /** ms epoch of the last state change, to order changes from other instances. */
  changedAt: number;
}

export class KeyHealth {
  /** Settles once the shared state is loaded from Redis (or Redis failed), at once without Redis. Never rejects. */
  readonly ready: Promise<void>;
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly cooldownMs: number;
  private readonly failureThreshold: number;
  private readonly openMs: number;
  private readonly maxOpenMs: number;
  private readonly authCooldownMs: number;
  private readonly probeTimeoutMs: number;
  private readonly onChange: KeyHealthOptions['onChange'];
  private readonly sync: RedisHealthSync | null;

  constructor(options: KeyHealthOptions = {}) {
    this.now = options.now ?? Date.now;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.failureThreshold = Math.max(1, options.failureThreshold ?? 3);
    this.openMs = options.openMs ?? 30_000;
    this.maxOpenMs = Math.max(this.openMs, options.maxOpenMs ?? 5 * 60_000);
    this.authCooldownMs = options.authCooldownMs ?? 5 * 60_000;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 60_000;
    this.onChange = options.onChange;
    const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.sync = options.redisUrl
      ? new RedisHealthSync({ url: options.redisUrl, instanceId, keyPrefix: options.redisKeyPrefix, apply: (c) => this.applyRemote(c), log: options.log })
      : null;
    this.ready = this.sync ? this.sync.ready : Promise.resolve();
  }

  /**
   * May this key get a request now? false while cooling or open. For a half_open key the first caller gets
   * true and holds its one probe (end it with succeeded/failed/rateLimited/authFailed, or released); others
   * get false until then. Call it right before sending; to filter candidates use isUsable.
   */
  acquire(ref: string): boolean {
    const e = this.entries.get(ref);
    if (e === undefined || e.state === 'healthy') return true;
    const now = this.now();
    const state = this.advance(e, now);
    if (state === 'healthy') return true;
    if (state !== 'half_open' || (e.probeAt !== 0 && now - e.probeAt < this.probeTimeoutMs)) return false;
    e.probeAt = now;
    return true;
  }

  /** Like acquire without taking the probe: would this key get a request now? */
  isUsable(ref: string): boolean {
    const e = this.entries.get(ref);
    if (e === undefined || e.state === 'healthy') return true;
    const now = this.now();
    const state = this.advance(e, now);
    return state === 'healthy' || (state === 'half_open' && (e.probeAt === 0 || now - e.probeAt >= this.probeTimeoutMs));
  }

  /** Soonest moment (ms epoch) one of these keys becomes usable again, for a 503's Retry-After; null for none. */
  nextAvailableAt(refs: Iterable<string>): number | null {
    const now = this.now();
    let soonest: number | null = null;
    for (const ref of refs) {
      const e = this.entries.get(ref);
      let at: number;
      if (e === undefined) at = now;
      else {
        const state = this.advance(e, now);
        if (state === 'cooling' || state === 'open') at = e.until;
        else if (state === 'half_open' && e.probeAt !== 0 && now - e.probeAt < this.probeTimeoutMs) at = now + PROBE_RETRY_MS;
        else at = now;
      }
      if (soonest === null || at < soonest) soonest = at;
    }
    return soonest;
  }

  succeeded(ref: string): void {
    const e = this.entries.get(ref);
    if (e === undefined) return;
    e.consecutiveFailures = 0;
    if (e.state === 'healthy') return;
    const state = this.advance(e, this.now());
    // A cooling key stays cooling: a request sent before the 429 that succeeds says nothing about the limit.
    if (state === 'open' || state === 'half_open') this.change(e, 'healthy', 0, false, e.lastError);
  }

  rateLimited(ref: string, retryAfterSeconds?: number): void {
    const e = this.entry(ref);
    const now = this.now();
    // At least a second even for `Retry-After: 0`: the key did just refuse a request.
    const given = retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0;
    const ms = given ? Math.min(MAX_RETRY_AFTER_MS, Math.max(1_000, Math.round(retryAfterSeconds * 1000))) : this.cooldownMs;
    // The key answered: its server is up, so a 429 ends a failure streak (and a probe) like a success would.
    e.consecutiveFailures = 0;
    e.opens = 0;
    const lastError = given ? `429 (Retry-After ${retryAfterSeconds} s)` : '429';
    this.coolUntil(e, now, now + ms, false, lastError);
  }

  authFailed(ref: string, status: number): void {
    const e = this.entry(ref);
    const now = this.now();
    e.consecutiveFailures = 0;
    e.opens = 0;
    this.coolUntil(e, now, now + this.authCooldownMs, true, `${status} (key refused)`);
  }

  /** 5xx, overload, timeout, connection error. */
  failed(ref: string, reason: string): void {
    const e = this.entry(ref);
    const now = this.now();
    e.consecutiveFailures++;
    e.lastError = reason.slice(0, 200);
    const state = this.advance(e, now);
    if (state === 'open') return; // a late answer to a request sent before the circuit opened
    if (state === 'half_open') {
      // The probe failed (or a straggler did, which says as much): reopen, for longer each time.
      e.opens++;
      const ms = Math.min(this.maxOpenMs, this.openMs * 2 ** Math.min(e.opens - 1, 30));
      this.change(e, 'open', now + ms, false, e.lastError);
    } else if (e.consecutiveFailures >= this.failureThreshold) {
      e.opens = 1;
      this.change(e, 'open', Math.max(state === 'cooling' ? e.until : 0, now + this.openMs), false, e.lastError);
    }
  }

  /** Releases a half-open probe that ended without an answer (client went away): the next request may probe. */
  released(ref: string): void {
    const e = this.entries.get(ref);
    if (e !== undefined) e.probeAt = 0;
  }

  view(ref: string): KeyHealthView {
    const e = this.entries.get(ref);
    if (e === undefined) return { ref, state: 'healthy', until: null, consecutiveFailures: 0, lastError: null };
    const state = this.advance(e, this.now());
    return { ref, state, until: state === 'cooling' || state === 'open' ? e.until : null, consecutiveFailures: e.consecutiveFailures, lastError: e.lastError };
  }

  /** Every key that has failed at least once since start (or that another instance reported), by ref. */
  snapshot(): KeyHealthView[] {
    return [...this.entries.keys()].sort().map((ref) => this.view(ref));
  }

  async close(): Promise<void> {
    await this.sync?.close();
  }

  /** Moves a cooldown or open circuit whose time is up to its next state; returns the state now. */
  private advance(e: Entry, now: number): KeyState {
    if ((e.state === 'cooling' || e.state === 'open') && now >= e.until) {
      e.state = e.state === 'open' || e.probeAfter ? 'half_open' : 'healthy';
      e.probeAt = 0;
    }
    return e.state;
  }

  private coolUntil(e: Entry, now: number, until: number, probeAfter: boolean, lastError: string): void {
    const state = this.advance(e, now);
    // Never shorten a longer wait already in force (an open circuit, or a longer earlier Retry-After).
    if ((state === 'cooling' || state === 'open') && e.until >= until) {
      e.lastError = lastError;
      e.probeAfter ||= probeAfter;
      return;
    }
    this.change(e, 'cooling', until, probeAfter, lastError);
  }

  private change(e: Entry, state: 'healthy' | 'cooling' | 'open', until: number, probeAfter: boolean, lastError: string | null): void {
    e.state = state;
    e.until = until;
    e.probeAfter = probeAfter;
    e.lastError = lastError;
    e.probeAt = 0;
    e.changedAt = this.now();
    if (state === 'healthy') e.opens = 0;
    this.sync?.publish({ ref: e.ref, state, until: state === 'healthy' ? null : until, probeAfter, lastError, at: e.changedAt });
    this.notify(e, 'local');
  }

  private applyRemote(c: HealthChange): void {
    const e = this.entry(c.ref);
    if (c.at < e.changedAt) return; // this instance knows something newer
    e.state = c.state;
    e.until = c.until ?? 0;
    e.probeAfter = c.probeAfter;
    e.lastError = c.lastError;
    e.probeAt = 0;
    e.changedAt = c.at;
    if (c.state === 'healthy') {
      e.consecutiveFailures = 0;
      e.opens = 0;
    }
    this.notify(e, 'remote');
  }

  private notify(e: Entry, origin: 'local' | 'remote'): void {
    if (this.onChange) this.onChange(this.view(e.ref), origin);
  }

  private entry(ref: string): Entry {
    let e = this.entries.get(ref);
    if (e === undefined) {
      e = { ref, state: 'healthy', until: 0, probeAfter: false, consecutiveFailures: 0, lastError: null, probeAt: 0, opens: 0, changedAt: 0 };
      this.entries.set(ref, e);
    }
    return e;
  }
}
