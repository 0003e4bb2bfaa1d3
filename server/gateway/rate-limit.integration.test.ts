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

  it('checkKnown: over a remembered limit, one request a second goes on to admission (recheck); the server default is refused on memory', async () => {
    const l = limiter(100, null);
    const t = Date.UTC(2026, 0, 1, 0, 0, 0);
    const known = { rpm: 2, tpm: null };
    expect(await l.checkKnown('k', known, t)).toEqual({ count: 1, recheck: false });
    expect(await l.checkKnown('k', known, t)).toEqual({ count: 2, recheck: false });
    expect(await l.checkKnown('k', known, t)).toEqual({ count: 3, recheck: true });
    await expect(l.checkKnown('k', known, t + 999)).rejects.toMatchObject({ code: 'rate_limited', metadata: { limit_per_minute: 2 } });
    expect((await l.checkKnown('k', known, t + 1_000)).recheck).toBe(true);
    // Admission's fresh limits decide: still 2 → 429; raised or removed (the default, 100) → through.
    const c = await l.checkKnown('k', known, t + 2_000);
    expect(() => l.checkAgainFresh(c, { rpm: 2, tpm: null }, t + 2_000)).toThrow(/2 requests per minute/);
    expect(() => l.checkAgainFresh(c, { rpm: 50, tpm: null }, t + 2_000)).not.toThrow();
    expect(() => l.checkAgainFresh(c, { rpm: null, tpm: null }, t + 2_000)).not.toThrow();

    // No remembered limits: over the server's default, refused on memory every time.
    const d = limiter(1, null);
    await d.checkKnown('u', undefined, t);
    await expect(d.checkKnown('u', undefined, t)).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(d.checkKnown('u', undefined, t + 5_000)).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('checkKnown: over a remembered token limit, likewise; the tokens counted are checked against the fresh one', async () => {
    const l = limiter(100, null);
    const t = Date.UTC(2026, 0, 1, 0, 0, 0);
    const known = { rpm: null, tpm: 10 };
    expect(await l.checkKnown('k', known, t)).toEqual({ count: 1, tokens: 0, recheck: false });
    await l.addTokens('k', 25, t);
    const over = await l.checkKnown('k', known, t);
    expect(over).toEqual({ count: 2, tokens: 25, recheck: true });
    await expect(l.checkKnown('k', known, t + 500)).rejects.toMatchObject({ code: 'rate_limited', metadata: { tokens_per_minute: 10 } });
    expect(() => l.checkAgainFresh(over, { rpm: null, tpm: 10 }, t)).toThrow(/10 tokens per minute/);
    expect(() => l.checkAgainFresh(over, { rpm: null, tpm: 1_000 }, t)).not.toThrow();
    expect(() => l.checkAgainFresh(over, { rpm: null, tpm: null }, t)).not.toThrow();
    // Lowered below what was counted: refused at once, though not over the remembered one.
    const under = await l.checkKnown('k', { rpm: null, tpm: 1_000 }, t + 2_000);
    expect(under.recheck).toBe(false);
    expect(() => l.checkAgainFresh(under, { rpm: null, tpm: 20 }, t + 2_000)).toThrow(/20 tokens per minute/);
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
