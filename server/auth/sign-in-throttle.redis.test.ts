// The sign-in throttle through a real Redis (TEST_REDIS_URL): counters live where every instance sees them,
// from the very first attempt, with an expiry; a success clears them; a Redis that is down does not turn the
// throttle off (memory takes over).
import Redis from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { describeWithRedis } from '@/test/redis';
import { beginSignInAttempt, EMAIL_WINDOW_MS, recordSignInSuccess, SIGN_IN_FREE_ATTEMPTS } from './sign-in-throttle';
import { closeThrottleStore, resetThrottleStore } from './throttle-store';

async function useRedisUrl(url: string | undefined) {
  await closeThrottleStore();
  resetThrottleStore();
  if (url) process.env.REDIS_URL = url;
  else delete process.env.REDIS_URL;
  resetEnvCache();
}

describeWithRedis('sign-in throttle', (redisUrl) => {
  let observer: Redis;
  beforeAll(async () => {
    await useRedisUrl(redisUrl);
    observer = new Redis(redisUrl);
  });
  afterAll(async () => {
    await useRedisUrl(undefined);
    await observer?.quit();
  });

  it('counts in Redis from the first attempt: another instance (no memory) is held back too', async () => {
    const email = `redis-${Date.now()}-${Math.random()}@x.io`;
    const now = Date.now();
    // Each attempt starts as a fresh instance would: nothing in this process's memory.
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS; i++) {
      resetThrottleStore();
      await beginSignInAttempt({ email, ip: '198.51.100.1', now: now + i });
    }
    const stored = JSON.parse((await observer.get(`sb:auth:signin:pair:${email}:198.51.100.1`)) ?? 'null');
    expect(stored).toMatchObject({ count: SIGN_IN_FREE_ATTEMPTS });
    expect(await observer.pttl(`sb:auth:signin:email:${email}`)).toBeGreaterThan(EMAIL_WINDOW_MS - 60_000);
    resetThrottleStore();
    await expect(beginSignInAttempt({ email, ip: '198.51.100.1', now: now + SIGN_IN_FREE_ATTEMPTS + 100 })).rejects.toMatchObject({ code: 'rate_limited' });

    await recordSignInSuccess({ email, ip: '198.51.100.1', now: now + 10_000 });
    expect(await observer.exists(`sb:auth:signin:pair:${email}:198.51.100.1`)).toBe(0);
    resetThrottleStore();
    await beginSignInAttempt({ email, ip: '198.51.100.1', now: now + 10_001 });
  });
});

describe('sign-in throttle with REDIS_URL pointing at nothing', () => {
  afterEach(() => useRedisUrl(undefined));

  it('still throttles, in memory', async () => {
    await useRedisUrl('redis://127.0.0.1:1');
    const email = `down-${Math.random()}@x.io`;
    const now = Date.now();
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS; i++) await beginSignInAttempt({ email, ip: 'ip', now: now + i });
    await expect(beginSignInAttempt({ email, ip: 'ip', now: now + SIGN_IN_FREE_ATTEMPTS + 100 })).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
