// What a spend window (an API key's or an organization member's) holds right now, read the way admission
// decides (reserve.ts): a window that started before the current day, ISO week or month of its reset period
// has rolled over, so its stored spend no longer counts, even though no request has rewritten it yet.
import { currentWindowStart, type LimitReset } from './reserve';

export interface SpendWindow {
  limitReset: LimitReset;
  windowStartedAt: Date;
  /** Settled spend plus what requests in flight hold, as of the window the row last saw. */
  windowSpentMicros: bigint;
}

/** The spend counted against the limit now: the stored spend, or 0 when the window has rolled over. */
export function spendInCurrentWindow(w: SpendWindow, now = new Date()): bigint {
  return w.windowStartedAt < currentWindowStart(w.limitReset, now) ? 0n : w.windowSpentMicros;
}

/** What a limit leaves to spend in the current window (never negative); null without a limit. */
export function remainingInWindow(limitMicros: bigint | null, w: SpendWindow, now = new Date()): bigint | null {
  if (limitMicros === null) return null;
  const left = limitMicros - spendInCurrentWindow(w, now);
  return left > 0n ? left : 0n;
}

/** 'DAILY' → 'daily'; NEVER → null (OpenRouter's `limit_reset` shape). */
export function limitResetName(reset: LimitReset): 'daily' | 'weekly' | 'monthly' | null {
  return reset === 'NEVER' ? null : (reset.toLowerCase() as 'daily' | 'weekly' | 'monthly');
}
