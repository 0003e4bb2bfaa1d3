// Per-credential rate limits on the chat endpoint: RATE_LIMIT_RPM requests per rolling minute, or the key's
// own rate_limit_rpm, and the key's rate_limit_tpm tokens per rolling minute (a sliding window over two fixed
// one-minute buckets). In memory by default; shared across instances
// through Redis when REDIS_URL is set (one pipelined INCR per request). One limiter per process, owned by
// the runtime (server/runtime).
import Redis from 'ioredis';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';

const WINDOW_MS = 60_000;

/**
 * A request over a key's remembered (learned) limits goes on to admission, which reads the key's current
 * limits, at most once per this interval per subject and process; in between it is refused from memory.
 */
const RECHECK_MS = 1_000;

function rateLimited(limit: number, unit: 'requests' | 'tokens', now: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
  return new AppError(
    'rate_limited',
    `Rate limit exceeded: ${limit} ${unit} per minute for this key. Retry after ${retryAfter}s.`,
    unit === 'requests' ? { limit_per_minute: limit, retry_after_seconds: retryAfter } : { tokens_per_minute: limit, retry_after_seconds: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}

function estimate(previous: number, current: number, now: number): number {
  const elapsed = (now % WINDOW_MS) / WINDOW_MS;
  return previous * (1 - elapsed) + current;
}

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

interface Counter {
  bucket: number;
  current: number;
  previous: number;
}

export class RateLimiter {
  private readonly local = new Map<string, Counter>();
  private readonly tokens = new Map<string, Counter>();
  private readonly learned = new Map<string, SubjectLimits>();
  private readonly rechecked = new Map<string, number>();
  private redis: Redis | null | undefined;

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
   * Counts one request for `subject`; throws a 429 AppError with Retry-After when over `limit` (default: the
   * server's). Returns the rolling count including this request.
   */
  async check(subject: string, now = Date.now(), limit = this.limitPerMinute): Promise<number> {
    const count = await this.count(`sb:rl:${subject}:`, this.local, subject, 1, now);
    if (count > limit) throw rateLimited(limit, 'requests', now);
    return count;
  }

  /**
   * Counts one request for `subject` and checks it against the key's remembered limits (`known`, from
   * limitsOf; the server's default rpm without one), the tokens only when a token limit is known. Over a
   * remembered limit — which may have been raised or removed since — the request is not refused on memory
   * alone once per RECHECK_MS per subject: `recheck` is returned instead, and the caller must check the
   * counts again against the limits admission reads (checkAgainFresh). Otherwise a 429 AppError. A subject
   * with no remembered limits (no key limit, or not a key) is refused on memory, as by `check`.
   */
  async checkKnown(subject: string, known: SubjectLimits | undefined, now = Date.now()): Promise<KnownCheck> {
    const rpm = known?.rpm ?? this.limitPerMinute;
    const count = await this.count(`sb:rl:${subject}:`, this.local, subject, 1, now);
    const overRequests = count > rpm;
    if (overRequests && !this.mayRecheck(subject, known, now)) throw rateLimited(rpm, 'requests', now);
    if (!known?.tpm) return { count, recheck: overRequests };
    const tokens = await this.count(`sb:tl:${subject}:`, this.tokens, subject, 0, now);
    if (tokens >= known.tpm && !overRequests && !this.mayRecheck(subject, known, now)) throw rateLimited(known.tpm, 'tokens', now);
    return { count, tokens, recheck: overRequests || tokens >= known.tpm };
  }

  /** Whether a subject over its remembered limits may go on to admission now (once per RECHECK_MS); marks it if so. */
  private mayRecheck(subject: string, known: SubjectLimits | undefined, now: number): boolean {
    if (!known || (this.rechecked.get(subject) ?? -Infinity) > now - RECHECK_MS) return false;
    if (this.rechecked.size > 100_000) this.rechecked.clear();
    this.rechecked.set(subject, now);
    return true;
  }

  /** Throws the 429 of `check` if `count` (what check returned) is over `limit`. */
  checkAgain(count: number, limit: number, now = Date.now()): void {
    if (count > limit) throw rateLimited(limit, 'requests', now);
  }

  /**
   * The counts `checkKnown` took, against the key's limits as admission just read them (null rpm: the
   * server's default; null tpm: none). A 429 AppError if they are over.
   */
  checkAgainFresh(c: KnownCheck, limits: SubjectLimits, now = Date.now()): void {
    this.checkAgain(c.count, limits.rpm ?? this.limitPerMinute, now);
    if (c.tokens !== undefined && limits.tpm && c.tokens >= limits.tpm) throw rateLimited(limits.tpm, 'tokens', now);
  }

  /** 429 when the tokens counted for `subject` in the rolling minute have reached `limit`. */
  async checkTokens(subject: string, limit: number, now = Date.now()): Promise<void> {
    const used = await this.count(`sb:tl:${subject}:`, this.tokens, subject, 0, now);
    if (used >= limit) throw rateLimited(limit, 'tokens', now);
  }

  /** Counts a finished request's tokens (prompt + completion) for `subject`; never awaited by a request. */
  async addTokens(subject: string, n: number, now = Date.now()): Promise<void> {
    if (n > 0) await this.count(`sb:tl:${subject}:`, this.tokens, subject, Math.round(n), now).catch(() => {});
  }

  /** Adds `n` to the subject's current one-minute bucket and returns the sliding-window estimate. */
  private async count(prefix: string, local: Map<string, Counter>, subject: string, n: number, now: number): Promise<number> {
    const bucket = Math.floor(now / WINDOW_MS);
    let previous: number;
    let current: number;
    const r = this.redisClient();
    if (r && r.status === 'ready') {
      const res = await r.multi().incrby(prefix + bucket, n).pexpire(prefix + bucket, WINDOW_MS * 2).get(prefix + (bucket - 1)).exec();
      current = Number(res?.[0]?.[1] ?? n);
      previous = Number(res?.[2]?.[1] ?? 0);
    } else {
      let s = local.get(subject);
      if (!s || s.bucket < bucket - 1) s = { bucket, current: 0, previous: 0 };
      else if (s.bucket === bucket - 1) s = { bucket, current: 0, previous: s.current };
      s.current += n;
      local.set(subject, s);
      current = s.current;
      previous = s.previous;
      if (local.size > 100_000) local.clear(); // bound memory; at worst a burst is allowed once
    }
    return estimate(previous, current, now);
  }

  /** Closes the Redis connection (shutdown); a later check reconnects. */
  async close(): Promise<void> {
    const r = this.redis;
    this.redis = undefined;
    if (r) await r.quit().catch(() => r.disconnect());
  }

  private redisClient(): Redis | null {
    if (this.redis !== undefined) return this.redis;
    const url = this.redisUrl === undefined ? env().REDIS_URL : this.redisUrl;
    this.redis = url ? new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null;
    this.redis?.on('error', () => {}); // reported per request below; do not crash on reconnects
    return this.redis;
  }
}
