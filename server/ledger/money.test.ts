import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUsd, microsToUsd, reportedUsdToMicros, tokenCostMicros, usdToMicros } from './money';

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
  it('reads a provider-reported USD number from its decimal text, sub-micro-dollar parts rounded up', () => {
    expect(Math.ceil(0.000123 * 1e6)).toBe(124); // why not multiply
    expect(reportedUsdToMicros(0.000123)).toBe(123n);
    expect(reportedUsdToMicros(JSON.parse('0.00024'))).toBe(240n);
    expect(reportedUsdToMicros(JSON.parse('0.95'))).toBe(950_000n);
    expect(reportedUsdToMicros(JSON.parse('12'))).toBe(12_000_000n);
    expect(reportedUsdToMicros(JSON.parse('0.0000195'))).toBe(20n); // 19.5 µ$ → 20 µ$
    expect(reportedUsdToMicros(JSON.parse('1.5e-7'))).toBe(1n);
    expect(reportedUsdToMicros(JSON.parse('2e-6'))).toBe(2n);
    expect(reportedUsdToMicros(JSON.parse('1.25e3'))).toBe(1_250_000_000n);
    expect(reportedUsdToMicros(0)).toBe(0n);
    expect(reportedUsdToMicros(5e-324)).toBe(1n);
    expect(reportedUsdToMicros('0.1234567')).toBe(123_457n);
    expect(reportedUsdToMicros(-0.5)).toBeNull();
    expect(reportedUsdToMicros(Number.NaN)).toBeNull();
    expect(reportedUsdToMicros(Number.POSITIVE_INFINITY)).toBeNull();
    expect(reportedUsdToMicros('abc')).toBeNull();
  });
  it('a reported amount with at most 6 decimals is exact', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (m) => reportedUsdToMicros(microsToUsd(m)) === m));
  });
});
