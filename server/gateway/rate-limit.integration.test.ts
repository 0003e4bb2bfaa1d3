import Redis from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/server/errors';
import { describeWithRedis } from '@/test/redis';
import { RateLimiter, type SubjectLimits } from './rate-limit';

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
    // A minute and 0.2 s on: the second that held the five is then four-fifths out of the rolling minute.
    await expect(l.check('k-mem', t)).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '61' } });
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

/** One request as the gateway makes it: counted against the key's remembered limits (checkKnown), then checked
 * again against the limits admission reads, here the same (checkAgainFresh). 0 when admitted, else Retry-After. */
async function request(l: RateLimiter, subject: string, limits: SubjectLimits, now: number): Promise<number> {
  try {
    l.checkAgainFresh(await l.checkKnown(subject, limits, now), limits, now);
    return 0;
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'rate_limited') throw err;
    return Number(err.headers['retry-after']);
  }
}

/** As `request`, through `check` (the server's default limit; count_tokens). */
async function plain(l: RateLimiter, subject: string, now: number): Promise<number> {
  return l.check(subject, now).then(
    () => 0,
    (err: AppError) => Number(err.headers['retry-after']),
  );
}

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
let subjects = 0;
const fresh = (name: string) => `${name}-${process.pid}-${Date.now()}-${subjects++}`;
/** How many of `times` fall in the rolling minute that ends at `t` ((t - 60 s, t]). */
const inMinuteTo = (times: number[], t: number) => times.filter((x) => x > t - 60_000 && x <= t).length;

/** The same behaviour in memory and through Redis; `make` gives a limiter of the server default `rpm`. */
function sweep(make: (rpm: number) => Promise<RateLimiter>): void {
  it('the sweep: limit 3, one request every 10 s → 3 admitted per rolling minute, none refused while it has room', async () => {
    for (const offset of [0, 7_250, 33_000, 59_500]) {
      for (const via of ['key limit', 'server default'] as const) {
        const l = await make(via === 'key limit' ? 600 : 3);
        const subject = fresh('sweep');
        const admitted: number[] = [];
        const refused: number[] = [];
        for (let t = 0; t < 10 * 60_000; t += 10_000) {
          const now = T0 + offset + t;
          const retryAfter = via === 'key limit' ? await request(l, subject, { rpm: 3, tpm: null }, now) : await plain(l, subject, now);
          (retryAfter === 0 ? admitted : refused).push(t);
        }
        const where = `offset ${offset}, ${via}`;
        // The defect's first two minutes: 12 requests, 3 admitted in each minute (were 0).
        expect(admitted.filter((t) => t < 120_000), where).toEqual([0, 10_000, 20_000, 70_000, 80_000, 90_000]);
        // Never more than 3 in a rolling minute; never a minute without one.
        for (const t of admitted) expect(inMinuteTo(admitted, t), `${where} at ${t}`).toBeLessThanOrEqual(3);
        for (let t = 60_000; t < 10 * 60_000; t += 10_000) expect(inMinuteTo(admitted, t), `${where} to ${t}`).toBeGreaterThanOrEqual(1);
        // A refusal only when the minute holds 3 (its oldest counted until a second after it is a minute old).
        for (const t of refused) expect(inMinuteTo(admitted, t) + inMinuteTo(admitted, t - 1_000), `${where} at ${t}`).toBeGreaterThanOrEqual(3);
        expect(admitted.length, where).toBe(27); // 3 every 70 s (a request 60 s old is still in the minute); were 0
      }
    }
  });

  it('Retry-After is when the next request is taken: honoured → admitted, a second earlier → 429 (and not counted)', async () => {
    for (const offset of [0, 400, 999, 30_500]) {
      const l = await make(600);
      const subject = fresh('honour');
      const limits = { rpm: 3, tpm: null };
      const admitted: number[] = [];
      let now = T0 + offset;
      // A client that sends at once after each answer, and waits Retry-After after a 429.
      while (now < T0 + offset + 5 * 60_000) {
        const retryAfter = await request(l, subject, limits, now);
        if (retryAfter === 0) {
          admitted.push(now);
          now += 250;
          continue;
        }
        if (retryAfter > 1) expect(await request(l, subject, limits, now + (retryAfter - 1) * 1_000), `offset ${offset} at ${now - T0}`).toBeGreaterThan(0);
        now += retryAfter * 1_000;
        expect(await request(l, subject, limits, now), `offset ${offset}: Retry-After ${retryAfter} honoured`).toBe(0);
        admitted.push(now);
        now += 250;
      }
      for (const t of admitted) expect(inMinuteTo(admitted, t)).toBeLessThanOrEqual(3);
      expect(admitted.length).toBeGreaterThanOrEqual(14); // 3 a minute and a second or so, over 5 minutes
    }
  });

  it('a refused request is not counted: a burst of 429s does not delay the next admission', async () => {
    const l = await make(3);
    const subject = fresh('burst');
    for (let i = 0; i < 3; i++) expect(await plain(l, subject, T0 + i)).toBe(0);
    for (let i = 0; i < 20; i++) expect(await plain(l, subject, T0 + 30_000 + i)).toBe(31);
    expect(await plain(l, subject, T0 + 59_000)).toBe(2);
    expect(await plain(l, subject, T0 + 61_000)).toBe(0);
    expect(await plain(l, subject, T0 + 61_000)).toBe(0);
    expect(await plain(l, subject, T0 + 61_000)).toBe(0);
    expect(await plain(l, subject, T0 + 61_000)).toBe(61); // the three leave from 121.33 s
  });

  it('tokens: Retry-After is when the rolling minute’s tokens drop below the limit (not the end of the minute)', async () => {
    const l = await make(600);
    const subject = fresh('tokens');
    const limits = { rpm: null, tpm: 100 };
    expect(await request(l, subject, limits, T0 + 17_000)).toBe(0);
    await l.addTokens(subject, 500, T0 + 17_400);
    // Second 17's 500 tokens are below 100 once four-fifths of it left the minute: at 77.8 s.
    expect(await request(l, subject, limits, T0 + 18_000)).toBe(60); // was 42: to the end of the minute
    await expect(l.checkKnown(subject, limits, T0 + 18_500)).rejects.toMatchObject({ metadata: { tokens_per_minute: 100, retry_after_seconds: 60 } });
    expect(await request(l, subject, limits, T0 + 77_000)).toBe(1);
    expect(await request(l, subject, limits, T0 + 78_000)).toBe(0);
  });

  it('checkAgainFresh gives back the count it refuses, once; its Retry-After is for the fresh limit', async () => {
    const l = await make(600);
    const subject = fresh('fresh');
    const known = { rpm: 10, tpm: null };
    for (let i = 0; i < 2; i++) await l.checkKnown(subject, known, T0);
    const third = await l.checkKnown(subject, known, T0);
    expect(third.count).toBe(3);
    // Lowered to 2: refused, and the two before it leave the minute at 60.5 s (half of second 0 left).
    expect(() => l.checkAgainFresh(third, { rpm: 2, tpm: null }, T0 + 100)).toThrow(expect.objectContaining({ headers: { 'retry-after': '61' } }));
    await l.release(third); // already given back: nothing more
    expect(await l.check(subject, T0 + 200, 3)).toBe(3); // 2 counted, not 3
    await expect(l.check(subject, T0 + 300, 3)).rejects.toMatchObject({ code: 'rate_limited' });
  });
}

describe('rate limit behaviour [memory]', () => sweep(async (rpm) => limiter(rpm, null)));

describeWithRedis('rate limit behaviour', (redisUrl) => {
  /** A limiter whose Redis connection is ready (before that it counts in memory). */
  async function connected(rpm: number): Promise<RateLimiter> {
    const l = limiter(rpm, redisUrl);
    await l.check(fresh('connect'));
    const r = (l as unknown as { redis: Redis }).redis;
    if (r.status !== 'ready') await new Promise((ok) => r.once('ready', ok));
    return l;
  }
  sweep(connected);

  it('counts atomically across instances: a burst at the limit admits exactly the limit, and the unthrottled path is one round trip', async () => {
    const [a, b] = [await connected(5), await connected(5)];
    const subject = fresh('atomic');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).check(subject, T0).then(() => 1, () => 0)));
    expect(results.reduce((x: number, y: number) => x + y, 0)).toBe(5);

    const send = vi.spyOn(Redis.prototype, 'sendCommand');
    try {
      await a.checkKnown(fresh('one-trip'), { rpm: 10, tpm: 1_000 }, T0);
      expect(send).toHaveBeenCalledTimes(1);
      send.mockClear();
      await expect(a.checkKnown(subject, undefined, T0)).rejects.toMatchObject({ code: 'rate_limited' });
      expect(send).toHaveBeenCalledTimes(1);
    } finally {
      send.mockRestore();
    }
  });
});
