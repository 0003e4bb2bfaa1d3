import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUsd, microsToUsd, tokenCostMicros, usdToMicros } from './money';

describe('money', () => {
  it('parses USD exactly', () => {
    expect(usdToMicros('12.34')).toBe(12_340_000n);
    expect(usdToMicros('0.000001')).toBe(1n);
    expect(usdToMicros(5)).toBe(5_000_000n);
    expect(usdToMicros('-1.5')).toBe(-1_500_000n);
    expect(() => usdToMicros('1.0000001')).toThrow();
    expect(() => usdToMicros('1e3')).toThrow();
    expect(() => usdToMicros('abc')).toThrow();
  });
  it('round-trips micros through USD numbers', () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (m) => usdToMicros(microsToUsd(m)) === m));
  });
  it('rounds token costs up to the micro-dollar', () => {
    expect(tokenCostMicros(1_000_000, 150_000)).toBe(150_000n);
    expect(tokenCostMicros(1, 150_000)).toBe(1n); // 0.15 µ$ → 1 µ$
    expect(tokenCostMicros(10, 150_000)).toBe(2n); // 1.5 µ$ → 2 µ$
    expect(tokenCostMicros(0, 150_000)).toBe(0n);
    expect(formatUsd(12_340_000n)).toBe('$12.34');
  });
});
