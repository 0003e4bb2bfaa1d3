// Money is integer micro-dollars (bigint): 1 USD = 1_000_000. Decimal strings are parsed exactly, never
// through a float. Numbers in USD appear only at the edges (JSON `cost`, balances in responses).

export const MICROS_PER_USD = 1_000_000n;

/** "12.34" | 12.34 → 12_340_000n. Throws on more than 6 decimals, NaN, or exponent notation. */
export function usdToMicros(value: string | number): bigint {
  const s = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,6}))?$/.exec(s);
  if (!m) throw new RangeError(`Not a USD amount with at most 6 decimals: ${JSON.stringify(value)}`);
  const [, sign, whole, frac = ''] = m;
  const micros = BigInt(whole) * MICROS_PER_USD + BigInt(frac.padEnd(6, '0'));
  return sign ? -micros : micros;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a finite amount: ${n}`);
  // toFixed(6) would round silently; refuse amounts that need more precision instead.
  const s = n.toFixed(6).replace(/\.?0+$/, '');
  if (Number(s) !== n) throw new RangeError(`Amount ${n} has more than 6 decimals`);
  return s;
}

/**
 * A USD amount a provider reported as a JSON number (OpenRouter's `usage.cost`) → micro-dollars, read from
 * the number's decimal text, never through float arithmetic (`cost * 1e6` drifts: 0.000123 * 1e6 is
 * 123.00000000000001, which rounded up is 124). `String(n)` is the shortest text that parses back to the same number — the text
 * JSON serializers write ("0.00024", "1.5e-7") — so it is the provider's own digits. Providers price in
 * fractions of a micro-dollar; those are rounded up, as tokenCostMicros does. Null for what is not a
 * finite amount ≥ 0 (a provider's cost is never negative).
 */
export function reportedUsdToMicros(value: number | string): bigint | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const m = /^(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(typeof value === 'number' ? String(value) : value.trim());
  if (!m) return null;
  const [, whole, frac = '', exp = '0'] = m;
  const digits = BigInt(whole + frac);
  // value = digits × 10^scale; micros = value × 10^6.
  const scale = Number(exp) - frac.length + 6;
  if (scale >= 0) return digits * 10n ** BigInt(scale);
  if (scale < -400) return digits === 0n ? 0n : 1n; // far below a micro-dollar (and out of BigInt-friendly range)
  const divisor = 10n ** BigInt(-scale);
  return (digits + divisor - 1n) / divisor;
}

/** 12_340_000n → 12.34 (a JS number, for JSON output only). Exact for |amounts| < $9 billion. */
export function microsToUsd(micros: bigint | number): number {
  const m = BigInt(micros);
  const neg = m < 0n;
  const abs = neg ? -m : m;
  const s = `${abs / MICROS_PER_USD}.${(abs % MICROS_PER_USD).toString().padStart(6, '0')}`;
  return Number(neg ? '-' + s : s);
}

/** "$12.34" for messages. */
export function formatUsd(micros: bigint): string {
  const usd = microsToUsd(micros);
  return `${usd < 0 ? '-' : ''}$${Math.abs(usd).toFixed(Math.abs(usd) < 0.01 && usd !== 0 ? 6 : 2)}`;
}

/**
 * Cost of `tokens` at `pricePerMillion` micro-dollars per million tokens, rounded up to the micro-dollar
 * (we never undercharge by rounding; the over-rounding is < $0.000001 per price component).
 */
export function tokenCostMicros(tokens: number, pricePerMillion: number): bigint {
  if (tokens <= 0 || pricePerMillion <= 0) return 0n;
  const num = BigInt(Math.trunc(tokens)) * BigInt(Math.trunc(pricePerMillion));
  return (num + 999_999n) / 1_000_000n;
}
