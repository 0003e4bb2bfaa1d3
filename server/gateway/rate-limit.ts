// Per-credential rate limits on the chat endpoint: RATE_LIMIT_RPM requests per rolling minute, or the key's
// own rate_limit_rpm, and the key's rate_limit_tpm tokens per rolling minute (a sliding window over one-second
// buckets: the last sixty, plus the part of the one before still within the minute). A refused request is not
// counted, and its Retry-After is when the window will take the next one. In memory by default; shared
// across instances through Redis when REDIS_URL is set (one script call per request, counting it only when
// it fits). One limiter per process, owned by the runtime (server/runtime).
import Redis from 'ioredis';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { estimate, fits, GIVE_BACK_LUA, msOf, SecondRing, secondOf, SECOND_MS, TAKE_LUA, waitMs, windowAt, WINDOW_S, type Seconds, type Window } from './rolling-minute';

/**
 * A request over a key's remembered (learned) limits goes on to admission, which reads the key's current
 * limits, at most once per this interval per subject and process; in between it is refused from memory.
 */
const RECHECK_MS = 1_000;

function rateLimited(limit: number, unit: 'requests' | 'tokens', wait: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(wait / 1000));
  return new AppError(
    'rate_limited',
    `Rate limit exceeded: ${limit} ${unit} per minute for this key. Retry after ${retryAfter}s.`,
    unit === 'requests' ? { limit_per_minute: limit, retry_after_seconds: retryAfter } : { tokens_per_minute: limit, retry_after_seconds: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}

/** The 429 naming `unit`'s limit; Retry-After is when both counts will take the request (if nothing else comes). */
function refusal(unit: Kind, now: number, requests: Seconds, rpm: number, tokens?: Seconds, tpm?: number): AppError {
  const wait = Math.max(waitMs(requests, now, rpm, SECOND_MS), tokens && tpm ? waitMs(tokens, now, tpm, 1) : 0);
  return unit === 'tokens' && tpm ? rateLimited(tpm, 'tokens', wait) : rateLimited(rpm, 'requests', wait);
}

type ScriptedRedis = Redis & {
  sbRateTake(numKeys: number, ...args: (string | number)[]): Promise<[number, ...number[][]]>;
  sbRateGiveBack(key: string, sec: number, n: number): Promise<number>;
};

/** A key's own limits, as its last admission reported them (null: the server's default / none). */
export interface SubjectLimits {
  rpm: number | null;
  tpm: number | null;
}

/** What `checkKnown` counted, for admission to check again against the limits it reads (`checkAgainFresh`). */
export interface KnownCheck {
  /** The rolling request count, this request included. */
  count: number;
  /** The rolling token count, when the key's token limit was known (and so counted). */
  tokens?: number;
  /**
   * Over a remembered limit and let through to admission only to learn the key's current limits: it must
   * not be dispatched early, and admission refuses it if those limits still hold.
   */
  recheck: boolean;
}

type Kind = 'requests' | 'tokens';
/** A count to read: its limit (none: counted regardless) and the room asked for, as `fits`. */
type Gate = { kind: Kind; limit?: number; extra: number };

/** What one `take` saw: the windows (the first with n added when they fitted), and where they were counted. */
interface Taken {
  fitted: boolean;
  windows: [Window, Window?];
  /** The counts per second, for a Retry-After: from Redis always; in memory only when refused (read from the ring later otherwise). */
  first?: Seconds;
  second?: Seconds;
  now: number;
  redis: boolean;
}

const KEY_PREFIX: Record<Kind, string> = { requests: 'sb:rpm:', tokens: 'sb:tpm:' };

export class RateLimiter {
  private readonly local: Record<Kind, Map<string, SecondRing>> = { requests: new Map(), tokens: new Map() };
  private readonly learned = new Map<string, SubjectLimits>();
  private readonly rechecked = new Map<string, number>();
  /** Where each KnownCheck's request was counted, to give it back once (`release`). */
  private readonly counted = new WeakMap<KnownCheck, { subject: string; taken: Taken }>();
  private redis: ScriptedRedis | null | undefined;

  /**
   * @param limitPerMinute requests per rolling minute per subject (RATE_LIMIT_RPM, fixed when the runtime is
   *   created); a key's own rate_limit_rpm replaces it for that key
   * @param redisUrl shared counters in Redis; undefined: REDIS_URL, read when first needed; null: in memory.
   */
  constructor(
    private readonly limitPerMinute: number,
    private readonly redisUrl?: string | null,
  ) {}

  /** The server-wide requests-per-minute default. */
  get defaultRpm(): number {
    return this.limitPerMinute;
  }

  /**
   * A key's limits live in the database and arrive with its admission (the one statement), after the count
   * had to be taken: they are remembered here and applied from the key's next request on, and admission
   * re-checks the counts it took against the fresh ones (checkAgainFresh), so a lowered limit holds at once.
   * A key over a remembered limit is let through to admission once per RECHECK_MS (checkKnown), so a raised
   * or removed limit is learned within about a second even while the key is throttled.
   */
  limitsOf(subject: string): SubjectLimits | undefined {
    return this.learned.get(subject);
  }

  learn(subject: string, limits: SubjectLimits): void {
    if (limits.rpm === null && limits.tpm === null) {
      this.learned.delete(subject);
      return;
    }
    if (this.learned.size > 100_000) this.learned.clear();
    this.learned.set(subject, limits);
  }

  /**
   * Counts one request for `subject` if it fits `limit` (default: the server's); otherwise a 429 AppError with
   * Retry-After, and nothing counted. Returns the rolling count including this request.
   */
  async check(subject: string, now = Date.now(), limit = this.limitPerMinute): Promise<number> {
    const t = await this.take(subject, now, 1, { kind: 'requests', limit, extra: SECOND_MS });
    if (!t.fitted) throw refusal('requests', now, t.first!, limit);
    return estimate(t.windows[0], msOf(now));
  }

  /**
   * Counts one request for `subject` if it fits the key's remembered limits (`known`, from limitsOf; the
   * server's default rpm without one; the tokens only when a token limit is known). Over a remembered limit —
   * which may have been raised or removed since — the request is not refused on memory alone once per
   * RECHECK_MS per subject: it is counted and `recheck` returned, and the caller must check the counts again
   * against the limits admission reads (checkAgainFresh). Otherwise a 429 AppError, nothing counted. A subject
   * with no remembered limits (no key limit, or not a key) is refused on memory, as by `check`.
   */
  async checkKnown(subject: string, known: SubjectLimits | undefined, now = Date.now()): Promise<KnownCheck> {
    const rpm = known?.rpm ?? this.limitPerMinute;
    const tpm = known?.tpm || undefined;
    const ms = msOf(now);
    let t = await this.take(subject, now, 1, { kind: 'requests', limit: rpm, extra: SECOND_MS }, tpm ? { kind: 'tokens', limit: tpm, extra: 1 } : undefined);
    const recheck = !t.fitted;
    if (recheck) {
      const unit = fits(t.windows[0], ms, rpm, SECOND_MS) ? 'tokens' : 'requests';
      if (!this.mayRecheck(subject, known, now)) throw refusal(unit, now, t.first!, rpm, t.second, tpm);
      // A second round trip, at most once a second per throttled subject: counted whatever the limits.
      t = await this.take(subject, now, 1, { kind: 'requests', extra: SECOND_MS }, tpm ? { kind: 'tokens', extra: 1 } : undefined);
    }
    const c: KnownCheck = { count: estimate(t.windows[0], ms), recheck };
    if (t.windows[1]) c.tokens = estimate(t.windows[1], ms);
    this.counted.set(c, { subject, taken: t });
    return c;
  }

  /** Whether a subject over its remembered limits may go on to admission now (once per RECHECK_MS); marks it if so. */
  private mayRecheck(subject: string, known: SubjectLimits | undefined, now: number): boolean {
    if (!known || (this.rechecked.get(subject) ?? -Infinity) > now - RECHECK_MS) return false;
    if (this.rechecked.size > 100_000) this.rechecked.clear();
    this.rechecked.set(subject, now);
    return true;
  }

  /**
   * The counts `checkKnown` took, against the key's limits as admission just read them (null rpm: the
   * server's default; null tpm: none). Over them: the request's count is given back (release) and a 429
   * AppError thrown, its Retry-After from the counts checkKnown saw, without this request.
   */
  checkAgainFresh(c: KnownCheck, limits: SubjectLimits, now = Date.now()): void {
    const rpm = limits.rpm ?? this.limitPerMinute;
    const tpm = c.tokens !== undefined && limits.tpm ? limits.tpm : undefined;
    const overRequests = c.count > rpm;
    if (!overRequests && (tpm === undefined || c.tokens! < tpm)) return;
    const entry = this.counted.get(c);
    const taken = entry?.taken;
    void this.release(c, now);
    let requests: Seconds;
    let tokens: Seconds | undefined;
    if (taken && !taken.redis) {
      // In memory: the live counts, this request already given back.
      requests = this.local.requests.get(entry.subject)?.seconds(secondOf(now)) ?? new Map();
      tokens = c.tokens !== undefined ? (this.local.tokens.get(entry.subject)?.seconds(secondOf(now)) ?? new Map()) : undefined;
    } else {
      requests = new Map(taken?.first ?? [[secondOf(now), c.count]]);
      const counted = taken ? secondOf(taken.now) : secondOf(now);
      requests.set(counted, (requests.get(counted) ?? 1) - 1);
      tokens = taken?.second ?? (c.tokens !== undefined ? new Map([[secondOf(now), c.tokens]]) : undefined);
    }
    throw refusal(overRequests ? 'requests' : 'tokens', now, requests, rpm, tokens, tpm);
  }

  /**
   * Gives back the request `checkKnown` counted for `c` (refused after it was counted), once; checkAgainFresh
   * does so itself. In memory at once; to Redis the command is sent before this returns.
   */
  release(c: KnownCheck, now = Date.now()): Promise<void> {
    const entry = this.counted.get(c);
    this.counted.delete(c);
    const sec = entry && secondOf(entry.taken.now);
    if (!entry || sec! < secondOf(now) - WINDOW_S) return Promise.resolve(); // out of the window already
    if (!entry.taken.redis) {
      this.local.requests.get(entry.subject)?.giveBack(sec!);
      return Promise.resolve();
    }
    const r = this.redisClient();
    if (!r || r.status !== 'ready') return Promise.resolve();
    return r.sbRateGiveBack(KEY_PREFIX.requests + entry.subject, sec!, 1).then(
      () => {},
      () => {},
    );
  }

  /** Counts a finished request's tokens (prompt + completion) for `subject`; never awaited by a request. */
  async addTokens(subject: string, n: number, now = Date.now()): Promise<void> {
    if (n > 0) await this.take(subject, now, Math.round(n), { kind: 'tokens', extra: 0 }).catch(() => {});
  }

  /**
   * Reads the subject's `first` counts (and `second`) and adds `n` to the first's current second only if both
   * fit their gates: one atomic script call in Redis, a plain read-and-add in memory.
   */
  private async take(subject: string, now: number, n: number, first: Gate, second?: Gate): Promise<Taken> {
    const sec = secondOf(now);
    const ms = msOf(now);
    const gates = second ? [first, second] : [first];
    const r = this.redisClient();
    const redis = r?.status === 'ready';
    if (redis) {
      const args = gates.flatMap((g) => [g.limit ?? -1, g.extra]);
      const [ok, ...lists] = await r!.sbRateTake(gates.length, ...gates.map((g) => KEY_PREFIX[g.kind] + subject), sec, ms, n, ...args);
      const fitted = Number(ok) === 1;
      const counts = lists.map((flat) => {
        const m: Seconds = new Map();
        for (let i = 0; i < flat.length; i += 2) m.set(Number(flat[i]), Number(flat[i + 1]));
        return m;
      });
      if (fitted && n > 0) counts[0]!.set(sec, (counts[0]!.get(sec) ?? 0) + n);
      return { fitted, windows: [windowAt(counts[0]!, sec), counts[1] && windowAt(counts[1], sec)], first: counts[0], second: counts[1], now, redis };
    }
    const ring0 = this.ring(gates[0]!.kind, subject);
    const ring1 = gates[1] ? this.ring(gates[1].kind, subject) : undefined;
    let w0 = ring0.window(sec);
    const w1 = ring1?.window(sec);
    const fitted = (gates[0]!.limit === undefined || fits(w0, ms, gates[0]!.limit, gates[0]!.extra)) && (!ring1 || gates[1]!.limit === undefined || fits(w1!, ms, gates[1]!.limit, gates[1]!.extra));
    if (fitted && n > 0) {
      ring0.add(sec, n);
      w0 = { previous: w0.previous, current: w0.current + n };
    }
    // The per-second counts only for a refusal's Retry-After.
    return fitted ? { fitted, windows: [w0, w1], now, redis } : { fitted, windows: [w0, w1], first: ring0.seconds(sec), second: ring1?.seconds(sec), now, redis };
  }

  /** The subject's counts in memory. */
  private ring(kind: Kind, subject: string): SecondRing {
    const local = this.local[kind];
    let counts = local.get(subject);
    if (!counts) {
      if (local.size > 100_000) local.clear(); // bound memory; at worst a burst is allowed once
      counts = new SecondRing();
      local.set(subject, counts);
    }
    return counts;
  }

  /** Closes the Redis connection (shutdown); a later check reconnects. */
  async close(): Promise<void> {
    const r = this.redis;
    this.redis = undefined;
    if (r) await r.quit().catch(() => r.disconnect());
  }

  private redisClient(): ScriptedRedis | null {
    if (this.redis !== undefined) return this.redis;
    const url = this.redisUrl === undefined ? env().REDIS_URL : this.redisUrl;
    const r = url ? (new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) as ScriptedRedis) : null;
    r?.defineCommand('sbRateTake', { lua: TAKE_LUA });
    r?.defineCommand('sbRateGiveBack', { numberOfKeys: 1, lua: GIVE_BACK_LUA });
    r?.on('error', () => {}); // reported per request below; do not crash on reconnects
    this.redis = r;
    return r;
  }
}
