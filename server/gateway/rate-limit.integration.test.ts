import { afterEach, describe, expect, it } from 'vitest';
import { describeWithRedis } from '@/test/redis';
import { RateLimiter } from './rate-limit';

const limiters: RateLimiter[] = [];
const limiter = (limitPerMinute: number, redisUrl: string | null) => {
  const l = new RateLimiter(limitPerMinute, redisUrl);
  limiters.push(l);
  return l;
};
afterEach(async () => {
  await Promise.all(limiters.splice(0).map((l) => l.close()));
});

describe('per-key rate limit', () => {
  it('in memory: allows the limit per minute, then 429 with Retry-After', async () => {
    const l = limiter(5, null);
    const t = Date.UTC(2026, 0, 1, 0, 0, 0);
    for (let i = 0; i < 5; i++) await l.check('k-mem', t);
    await expect(l.check('k-mem', t)).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '60' } });
    // a different key is independent
    await l.check('k-other', t);
    // two minutes later the window has rolled over
    await l.check('k-mem', t + 120_000);
  });
});

describeWithRedis('per-key rate limit', (redisUrl) => {
  it('through Redis when REDIS_URL is set (shared by every instance)', async () => {
    const l = limiter(3, redisUrl);
    const subject = `k-redis-${Date.now()}-${Math.random()}`;
    const t = Date.now();
    await l.check(subject, t); // connects
    await new Promise((r) => setTimeout(r, 200));
    let refused = 0;
    for (let i = 0; i < 6; i++) await l.check(subject, t).catch(() => refused++);
    expect(refused).toBeGreaterThanOrEqual(3);
    // the counter lives in Redis, not in this process: another instance's limiter sees it
    const other = limiter(3, redisUrl);
    await other.check(`${subject}-connect`, t); // connects
    await new Promise((r) => setTimeout(r, 200));
    await expect(other.check(subject, t)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
