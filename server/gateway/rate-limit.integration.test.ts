import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { describeWithRedis } from '@/test/redis';
import { checkRateLimit, closeRateLimiter, resetRateLimits } from './rate-limit';

describe('per-key rate limit', () => {
  afterEach(async () => {
    delete process.env.REDIS_URL;
    resetEnvCache();
    await closeRateLimiter();
    resetRateLimits();
  });

  it('in memory: allows the limit per minute, then 429 with Retry-After', async () => {
    const t = Date.UTC(2026, 0, 1, 0, 0, 0);
    for (let i = 0; i < 5; i++) await checkRateLimit('k-mem', 5, t);
    await expect(checkRateLimit('k-mem', 5, t)).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '60' } });
    // a different key is independent
    await checkRateLimit('k-other', 5, t);
    // two minutes later the window has rolled over
    await checkRateLimit('k-mem', 5, t + 120_000);
  });
});

describeWithRedis('per-key rate limit', (redisUrl) => {
  afterEach(async () => {
    delete process.env.REDIS_URL;
    resetEnvCache();
    await closeRateLimiter();
    resetRateLimits();
  });

  it('through Redis when REDIS_URL is set (shared by every instance)', async () => {
    process.env.REDIS_URL = redisUrl;
    resetEnvCache();
    await closeRateLimiter();
    const subject = `k-redis-${Date.now()}-${Math.random()}`;
    const t = Date.now();
    await checkRateLimit(subject, 3, t); // connects
    await new Promise((r) => setTimeout(r, 200));
    let refused = 0;
    for (let i = 0; i < 6; i++) await checkRateLimit(subject, 3, t).catch(() => refused++);
    expect(refused).toBeGreaterThanOrEqual(3);
    // the counter lives in Redis, not in this process
    resetRateLimits();
    await expect(checkRateLimit(subject, 3, t)).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
