// The rolling minute of the rate limiter (rate-limit.ts): counts in one-second buckets, in memory as a ring
// of 61 seconds (SecondRing: O(1) a request, no allocation) or in Redis as a hash per subject (TAKE_LUA), and
// the arithmetic both share: whether a request fits (`fits`), the estimate, and the wait until it would.

/** The rolling minute is counted in one-second buckets: 60 whole ones plus the part of the oldest still in it. */
export const SECOND_MS = 1_000;
export const WINDOW_S = 60;

/** A subject's counts per epoch second, over the last minute and a second. */
export type Seconds = Map<number, number>;

/**
 * The rolling minute at second `sec`: `previous`, the second sixty seconds back, of which the part not yet
 * elapsed in the current second is still in the minute, and `current`, the sixty seconds since. (Two one-minute
 * buckets, as before, held a client polling every 10 s at 3 per minute to 2: the previous minute's weight
 * assumes its requests were spread evenly. One-second buckets make that assumption about one second only.)
 */
export interface Window {
  previous: number;
  current: number;
}

export function windowAt(counts: Seconds, sec: number): Window {
  const w = { previous: 0, current: 0 };
  for (const [s, n] of counts) {
    if (s === sec - WINDOW_S) w.previous = n;
    else if (s > sec - WINDOW_S) w.current += n;
  }
  return w;
}

/**
 * A subject's counts in memory: a ring of the last 61 seconds and their sum, so that counting a request
 * is O(1) and allocates nothing (this is on every chat request).
 */
export class SecondRing {
  private readonly ring = new Float64Array(WINDOW_S + 1);
  private sum = 0;
  private last = -Infinity;

  /** Moves to second `sec`, dropping the seconds that left the window (an earlier `sec` reads the state as it is). */
  private advance(sec: number): void {
    if (sec <= this.last) return;
    for (let s = Math.max(this.last + 1, sec - WINDOW_S); s <= sec; s++) {
      const i = s % (WINDOW_S + 1);
      this.sum -= this.ring[i]!;
      this.ring[i] = 0;
    }
    this.last = sec;
  }

  window(sec: number): Window {
    this.advance(sec);
    const previous = this.ring[(sec - WINDOW_S) % (WINDOW_S + 1)]!;
    return { previous, current: this.sum - previous };
  }

  add(sec: number, n: number): void {
    this.advance(sec);
    this.ring[sec % (WINDOW_S + 1)]! += n;
    this.sum += n;
  }

  /** Takes one back from second `sec`, if it is still counted. */
  giveBack(sec: number): void {
    if (sec <= this.last - WINDOW_S || sec > this.last) return;
    const i = sec % (WINDOW_S + 1);
    if (this.ring[i]! <= 0) return;
    this.ring[i]! -= 1;
    this.sum -= 1;
  }

  /** The counts per second (for a Retry-After: refusals only). */
  seconds(sec: number): Seconds {
    this.advance(sec);
    const m: Seconds = new Map();
    for (let s = sec - WINDOW_S; s <= sec; s++) {
      const n = this.ring[s % (WINDOW_S + 1)]!;
      if (n !== 0) m.set(s, n);
    }
    return m;
  }
}

/**
 * Whether the window, `ms` into its second, has room for `extra` more under `limit`: the estimate in
 * units·ms, integers, so that a request exactly at the limit is not refused by a rounding error. A request
 * asks for n·SECOND_MS (count ≤ limit), tokens for 1 (used < limit). TAKE_LUA computes the same.
 */
export function fits(w: Window, ms: number, limit: number, extra: number): boolean {
  return w.previous * (SECOND_MS - ms) + w.current * SECOND_MS + extra <= limit * SECOND_MS;
}

export function estimate(w: Window, ms: number): number {
  return (w.previous * (SECOND_MS - ms) + w.current * SECOND_MS) / SECOND_MS;
}

/** Milliseconds from `now` until `fits` holds, if nothing more is counted meanwhile (0: it holds now). */
export function waitMs(counts: Seconds, now: number, limit: number, extra: number): number {
  const sec = Math.floor(now / SECOND_MS);
  const ms = now - sec * SECOND_MS;
  // Second by second, each oldest second's share shrinking as the second goes on, until all have left.
  for (let k = 0; k <= WINDOW_S + 1; k++) {
    const w = windowAt(counts, sec + k);
    const room = (limit - w.current) * SECOND_MS - extra;
    if (room < 0) continue;
    const at = Math.max(k === 0 ? ms : 0, w.previous > 0 ? SECOND_MS - Math.floor(room / w.previous) : 0);
    if (at < SECOND_MS) return k * SECOND_MS + at - ms;
  }
  return (WINDOW_S + 2) * SECOND_MS - ms; // never (a limit below one request): a minute on
}


/**
 * KEYS: a hash of per-second counts, optionally a second one; ARGV: sec, ms, n, then each hash's limit
 * (negative: none) and extra, as `fits`. Drops seconds that left the window; adds n to the first hash's
 * current second only when every hash fits; returns { fitted, first's [second, count, ...][, second's] }.
 */
export const TAKE_LUA = `
local sec, ms, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local out, ok = {}, true
for i = 1, #KEYS do
  local flat = redis.call('HGETALL', KEYS[i])
  local previous, current, kept, stale = 0, 0, {}, {}
  for j = 1, #flat, 2 do
    local s, c = tonumber(flat[j]), tonumber(flat[j + 1])
    if s < sec - ${WINDOW_S} then
      stale[#stale + 1] = flat[j]
    else
      if s == sec - ${WINDOW_S} then previous = c else current = current + c end
      kept[#kept + 1] = s
      kept[#kept + 1] = c
    end
  end
  if #stale > 0 then redis.call('HDEL', KEYS[i], unpack(stale)) end
  local limit, extra = tonumber(ARGV[2 + 2 * i]), tonumber(ARGV[3 + 2 * i])
  if limit >= 0 and previous * (${SECOND_MS} - ms) + current * ${SECOND_MS} + extra > limit * ${SECOND_MS} then ok = false end
  out[i + 1] = kept
end
if ok and n > 0 then
  redis.call('HINCRBY', KEYS[1], sec, n)
  redis.call('PEXPIRE', KEYS[1], ${(WINDOW_S + 2) * SECOND_MS})
end
out[1] = ok and 1 or 0
return out`;

/** Gives back n from a second still counted (one that left the window was dropped). */
export const GIVE_BACK_LUA = `if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[2])) end return 0`;

export const secondOf = (now: number) => Math.floor(now / SECOND_MS);
export const msOf = (now: number) => now - secondOf(now) * SECOND_MS;
