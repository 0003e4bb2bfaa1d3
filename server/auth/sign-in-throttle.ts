// Throttling against password guessing, and quotas for the public auth endpoints (sign-up, device codes).
//
// Sign-in: every attempt counts as a failure until it succeeds, so parallel guesses cannot slip through
// between a check and its count.
//   - per email + IP: 5 free attempts, then exponential backoff (1 s, 2 s, 4 s … capped at 15 min) measured
//     from the previous attempt; a success clears it;
//   - per email, from any IP: at most 30 failed attempts per 15 minutes, against guessing spread over many
//     addresses (the price: an attacker can hold one email's password sign-in for 15 minutes).
// Addresses come from X-Forwarded-For, which a client can set when no proxy rewrites it; the per-email
// ceiling is what holds regardless.
import { AppError } from '@/server/errors';
import { updateCounter, type Counter } from './throttle-store';

export const SIGN_IN_FREE_ATTEMPTS = 5;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 15 * 60_000;
export const EMAIL_WINDOW_MS = 15 * 60_000;
export const EMAIL_MAX_FAILURES = 30;

function rateLimited(message: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', `${message} Try again in ${seconds} s.`, { retry_after_seconds: seconds }, { 'retry-after': String(seconds) });
}

/** Backoff before the next attempt after `failures` failures (0 while under the free attempts). */
export function backoffMs(failures: number): number {
  if (failures < SIGN_IN_FREE_ATTEMPTS) return 0;
  return Math.min(BASE_DELAY_MS * 2 ** (failures - SIGN_IN_FREE_ATTEMPTS), MAX_DELAY_MS);
}

const pairKey = (email: string, ip: string) => `signin:pair:${email.toLowerCase()}:${ip}`;
const emailKey = (email: string) => `signin:email:${email.toLowerCase()}`;

/** Counts a sign-in attempt, or throws a 429 AppError (with Retry-After) when this one must wait. */
export async function beginSignInAttempt(p: { email: string; ip: string; now?: number }): Promise<void> {
  const now = p.now ?? Date.now();
  let wait = 0;
  await updateCounter(
    pairKey(p.email, p.ip),
    (c) => {
      const delay = c ? backoffMs(c.count) : 0;
      if (c && now < c.last + delay) {
        wait = c.last + delay - now;
        return c;
      }
      return { count: (c?.count ?? 0) + 1, first: c?.first ?? now, last: now };
    },
    MAX_DELAY_MS + EMAIL_WINDOW_MS,
    now,
  );
  if (wait > 0) throw rateLimited('Too many sign-in attempts.', wait);

  await updateCounter(
    emailKey(p.email),
    (c) => {
      if (!c || now - c.first >= EMAIL_WINDOW_MS) return { count: 1, first: now, last: now };
      if (c.count >= EMAIL_MAX_FAILURES) {
        wait = c.first + EMAIL_WINDOW_MS - now;
        return c;
      }
      return { ...c, count: c.count + 1, last: now };
    },
    EMAIL_WINDOW_MS,
    now,
  );
  if (wait > 0) throw rateLimited('Too many failed sign-in attempts for this account.', wait);
}

/** A correct password: the attempt was not a failure after all. */
export async function recordSignInSuccess(p: { email: string; ip: string; now?: number }): Promise<void> {
  const now = p.now ?? Date.now();
  await updateCounter(pairKey(p.email, p.ip), () => null, 1, now);
  await updateCounter(emailKey(p.email), (c: Counter | null) => (c && c.count > 1 ? { ...c, count: c.count - 1 } : null), EMAIL_WINDOW_MS, now);
}

/** A fixed-window quota, e.g. sign-ups per address per hour; throws 429 with Retry-After when used up. */
export async function consumeQuota(p: { key: string; limit: number; windowMs: number; what: string; now?: number }): Promise<void> {
  const now = p.now ?? Date.now();
  let wait = 0;
  await updateCounter(
    `quota:${p.key}`,
    (c) => {
      if (!c || now - c.first >= p.windowMs) return { count: 1, first: now, last: now };
      if (c.count >= p.limit) {
        wait = c.first + p.windowMs - now;
        return c;
      }
      return { ...c, count: c.count + 1, last: now };
    },
    p.windowMs,
    now,
  );
  if (wait > 0) throw rateLimited(`Too many ${p.what} from this address.`, wait);
}

/** The client address: the first X-Forwarded-For hop, which the production server sets from the socket unless TRUST_PROXY=1 (server/http/client-address.ts). */
export function clientIp(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || headers.get('x-real-ip')?.trim() || 'unknown';
}
