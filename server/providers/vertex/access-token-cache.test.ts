import { describe, expect, it } from 'vitest';
import { createAccessTokenCache, type AccessToken } from './access-token-cache';

/** A token source minting `tok-<n>` with the given lifetime, on a clock the test moves. */
function setup(lifetimeMs: number) {
  const clock = { t: 1_000_000 };
  let n = 0;
  let failNext = false;
  const calls: number[] = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const fetchToken = async (): Promise<AccessToken> => {
    calls.push(clock.t);
    if (hold) await new Promise<void>((r) => pending.push(r));
    if (failNext) throw new Error('invalid_grant');
    return { token: `tok-${++n}`, expiresAt: clock.t + lifetimeMs };
  };
  const cache = createAccessTokenCache(fetchToken, () => clock.t);
  return { clock, calls, cache, fail: (v: boolean) => (failNext = v), hold: (v: boolean) => (hold = v), release: () => pending.splice(0).forEach((r) => r()) };
}

describe('createAccessTokenCache', () => {
  it('keeps an hour-long token until 5 minutes before expiry, then refreshes', async () => {
    const s = setup(3600_000);
    expect(await s.cache.get()).toBe('tok-1');
    s.clock.t += 54 * 60_000;
    expect(await s.cache.get()).toBe('tok-1');
    s.clock.t += 1 * 60_000 + 1;
    expect(await s.cache.get()).toBe('tok-2');
    expect(s.calls).toHaveLength(2);
  });

  it('refreshes a 60 s token when a quarter of its life is left', async () => {
    const s = setup(60_000);
    await s.cache.get();
    s.clock.t += 44_000;
    expect(await s.cache.get()).toBe('tok-1');
    s.clock.t += 2_000;
    expect(await s.cache.get()).toBe('tok-2');
  });

  it('concurrent callers share one refresh', async () => {
    const s = setup(60_000);
    s.hold(true);
    const all = Promise.all(Array.from({ length: 10 }, () => s.cache.get()));
    await new Promise((r) => setImmediate(r));
    s.release();
    expect(await all).toEqual(Array(10).fill('tok-1'));
    expect(s.calls).toHaveLength(1);
  });

  it('a failed refresh falls back to the still-valid token, and fails once it has expired', async () => {
    const s = setup(60_000);
    await s.cache.get();
    s.clock.t += 50_000;
    s.fail(true);
    expect(await s.cache.get()).toBe('tok-1');
    s.clock.t += 10_000;
    await expect(s.cache.get()).rejects.toThrow('invalid_grant');
    s.fail(false);
    expect(await s.cache.get()).toBe('tok-2');
  });

  it('invalidate drops the token: the next get fetches', async () => {
    const s = setup(3600_000);
    await s.cache.get();
    s.cache.invalidate();
    expect(await s.cache.get()).toBe('tok-2');
  });
});
