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
