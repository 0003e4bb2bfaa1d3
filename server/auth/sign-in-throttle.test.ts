import { beforeEach, describe, expect, it } from 'vitest';
import { backoffMs, beginSignInAttempt, clientIp, consumeQuota, EMAIL_MAX_FAILURES, recordSignInSuccess, SIGN_IN_FREE_ATTEMPTS } from './sign-in-throttle';
import { resetThrottleStore } from './throttle-store';

describe('sign-in throttle', () => {
  beforeEach(() => resetThrottleStore());
  const t0 = 1_700_000_000_000;

  it('allows the free attempts, then backs off exponentially from the previous attempt', async () => {
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS; i++) await beginSignInAttempt({ email: 'a@x.io', ip: '1.1.1.1', now: t0 + i });
    const last = t0 + SIGN_IN_FREE_ATTEMPTS - 1;
    await expect(beginSignInAttempt({ email: 'A@x.io', ip: '1.1.1.1', now: last + 500 })).rejects.toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '1' } });
    // another address is not held back by this one
    await beginSignInAttempt({ email: 'a@x.io', ip: '2.2.2.2', now: last + 500 });
    await beginSignInAttempt({ email: 'a@x.io', ip: '1.1.1.1', now: last + 1000 });
    await expect(beginSignInAttempt({ email: 'a@x.io', ip: '1.1.1.1', now: last + 2500 })).rejects.toMatchObject({ code: 'rate_limited' });
    await beginSignInAttempt({ email: 'a@x.io', ip: '1.1.1.1', now: last + 3000 });
    expect([backoffMs(4), backoffMs(5), backoffMs(6), backoffMs(7), backoffMs(40)]).toEqual([0, 1000, 2000, 4000, 15 * 60_000]);
  });

  it('a success clears the address counter', async () => {
    for (let i = 0; i < SIGN_IN_FREE_ATTEMPTS; i++) await beginSignInAttempt({ email: 'b@x.io', ip: 'ip', now: t0 });
    await recordSignInSuccess({ email: 'b@x.io', ip: 'ip', now: t0 });
    await beginSignInAttempt({ email: 'b@x.io', ip: 'ip', now: t0 });
  });

  it('caps failures per email across addresses', async () => {
    for (let i = 0; i < EMAIL_MAX_FAILURES; i++) await beginSignInAttempt({ email: 'c@x.io', ip: `10.0.0.${i}`, now: t0 + i });
    await expect(beginSignInAttempt({ email: 'c@x.io', ip: '10.9.9.9', now: t0 + 100 })).rejects.toMatchObject({ code: 'rate_limited' });
    await beginSignInAttempt({ email: 'c@x.io', ip: '10.9.9.9', now: t0 + 15 * 60_000 + 1 });
  });

  it('fixed-window quotas', async () => {
    for (let i = 0; i < 3; i++) await consumeQuota({ key: 'k', limit: 3, windowMs: 1000, what: 'things', now: t0 });
    await expect(consumeQuota({ key: 'k', limit: 3, windowMs: 1000, what: 'things', now: t0 + 10 })).rejects.toMatchObject({ code: 'rate_limited', message: /Too many things/ });
    await consumeQuota({ key: 'k', limit: 3, windowMs: 1000, what: 'things', now: t0 + 1000 });
  });

  it('reads the client address from forwarding headers', () => {
    expect(clientIp(new Headers({ 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }))).toBe('203.0.113.9');
    expect(clientIp(new Headers())).toBe('unknown');
  });
});
