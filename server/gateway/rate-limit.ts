// Per-credential request rate limit on the chat endpoint: RATE_LIMIT_RPM requests per rolling minute
// (a sliding window over two fixed one-minute buckets). In memory by default; shared across instances
// through Redis when REDIS_URL is set (one pipelined INCR per request). One limiter per process, owned by
// the runtime (server/runtime).
import Redis from 'ioredis';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';

const WINDOW_MS = 60_000;

function estimate(previous: number, current: number, now: number): number {
  const elapsed = (now % WINDOW_MS) / WINDOW_MS;
  return previous * (1 - elapsed) + current;
}

export class RateLimiter {
  private readonly local = new Map<string, { bucket: number; current: number; previous: number }>();
  private redis: Redis | null | undefined;

  /**
   * @param limitPerMinute requests per rolling minute per subject (RATE_LIMIT_RPM, fixed when the runtime is created)
   * @param redisUrl shared counters in Redis; undefined: REDIS_URL, read when first needed; null: in memory.
   */
  constructor(
    private readonly limitPerMinute: number,
    private readonly redisUrl?: string | null,
  ) {}

  /** Counts one request for `subject`; throws a 429 AppError with Retry-After when over the limit. */
  async check(subject: string, now = Date.now()): Promise<void> {
    const limit = this.limitPerMinute;
    const bucket = Math.floor(now / WINDOW_MS);
    let previous: number;
    let current: number;
    const r = this.redisClient();
    if (r && r.status === 'ready') {
      const k = `sb:rl:${subject}:`;
      const res = await r.multi().incr(k + bucket).pexpire(k + bucket, WINDOW_MS * 2).get(k + (bucket - 1)).exec();
      current = Number(res?.[0]?.[1] ?? 1);
      previous = Number(res?.[2]?.[1] ?? 0);
    } else {
      const local = this.local;
      let s = local.get(subject);
      if (!s || s.bucket < bucket - 1) s = { bucket, current: 0, previous: 0 };
      else if (s.bucket === bucket - 1) s = { bucket, current: 0, previous: s.current };
      s.current++;
      local.set(subject, s);
      current = s.current;
      previous = s.previous;
      if (local.size > 100_000) local.clear(); // bound memory; at worst a burst is allowed once
    }
    if (estimate(previous, current, now) > limit) {
      const retryAfter = Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
      throw new AppError('rate_limited', `Rate limit exceeded: ${limit} requests per minute for this key. Retry after ${retryAfter}s.`, { limit_per_minute: limit, retry_after_seconds: retryAfter }, { 'retry-after': String(retryAfter) });
    }
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
