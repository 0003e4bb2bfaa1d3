import { describe, expect, it } from 'vitest';
import { decimalsOf, formatTick, niceTicks, type AxisUnit } from './nice-ticks';

/** What a label says, as a number in the axis' unit (the inverse of formatTick). */
function parseLabel(label: string, unit: AxisUnit): number {
  const m = /^\$?(-?[\d.]+)\s*(K|M|B|s|ms|%)?$/.exec(label);
  if (!m) throw new Error(`unparsable label ${label}`);
  const n = Number(m[1]);
  const factor = { K: 1e3, M: 1e6, B: 1e9, s: 1000, ms: 1, '%': 0.01 }[m[2] ?? ''] ?? 1;
  return unit === 'ms' && !m[2] ? n : n * factor;
}

describe('niceTicks', () => {
  it('the reported case: a $0.015 maximum gets $0.015 / $0.010 / $0.005 / $0, each label its gridline', () => {
    const t = niceTicks(0.015);
    expect(t.values).toEqual([0.015, 0.01, 0.005, 0]);
    expect(t.values.map((v) => formatTick(v, t.step, 'usd'))).toEqual(['$0.015', '$0.010', '$0.005', '$0']);
  });

  it('round steps from 0 to at least the maximum, with 1 to 5 intervals', () => {
    expect(niceTicks(0.73).values).toEqual([0.8, 0.6, 0.4, 0.2, 0]);
    expect(niceTicks(1230).values).toEqual([1500, 1000, 500, 0]);
    expect(niceTicks(10).values).toEqual([10, 7.5, 5, 2.5, 0]);
    expect(niceTicks(0).values).toEqual([1, 0.75, 0.5, 0.25, 0]);
    expect(niceTicks(Number.NaN).max).toBe(1);
  });

  it('counts (tokens, requests) step by whole numbers: an empty chart is 0–1, never 0.25 tokens', () => {
    expect(niceTicks(0, 4, 'count').values).toEqual([1, 0]);
    expect(niceTicks(3, 4, 'count').values).toEqual([3, 2, 1, 0]);
    expect(niceTicks(10, 4, 'count').values).toEqual([10, 5, 0]);
    expect(niceTicks(1230, 4, 'count').values).toEqual([1500, 1000, 500, 0]);
    expect(niceTicks(0.004, 4, 'count').values).toEqual([1, 0]);
    for (let max = 0; max < 200; max += 7) for (const v of niceTicks(max, 4, 'count').values) expect(Number.isInteger(v), `${max}: ${v}`).toBe(true);
  });

  it('for many maxima in every unit: covers the data, and every label parses back to its tick value', () => {
    const units: AxisUnit[] = ['usd', 'count', 'ms', 'ratio'];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2000; i++) {
      const max = 10 ** (random() * 14 - 7) * (1 + random());
      const t = niceTicks(max);
      expect(t.max).toBeGreaterThanOrEqual(max * (1 - 1e-12));
      expect(t.values.length).toBeGreaterThanOrEqual(2);
      expect(t.values.length).toBeLessThanOrEqual(6);
      expect(t.values.at(-1)).toBe(0);
      for (const unit of units) {
        const labels = t.values.map((v) => formatTick(v, t.step, unit));
        expect(new Set(labels).size, `${unit} ${max}: ${labels.join(' ')}`).toBe(labels.length);
        for (const [j, v] of t.values.entries()) {
          expect(Math.abs(parseLabel(labels[j]!, unit) - v), `${unit} max ${max}: ${labels[j]} for ${v}`).toBeLessThanOrEqual(Math.abs(v) * 1e-9 + 1e-15);
        }
      }
    }
  });

  it('decimalsOf', () => {
    expect([0.005, 2.5, 0.25, 500, 1, 0.0001].map(decimalsOf)).toEqual([3, 1, 2, 0, 0, 4]);
  });

  it('formats by unit', () => {
    expect(formatTick(1500, 500, 'usd')).toBe('$1500');
    expect(formatTick(1500, 500, 'count')).toBe('1500');
    expect(formatTick(15000, 5000, 'count')).toBe('15K');
    expect(formatTick(2500, 2500, 'usd')).toBe('$2.5K');
    expect(formatTick(0.5, 0.25, 'usd')).toBe('$0.50');
    expect(formatTick(2500, 500, 'ms')).toBe('2500 ms');
    expect(formatTick(2500, 2500, 'ms')).toBe('2.5 s');
    expect(formatTick(0.75, 0.25, 'ratio')).toBe('75%');
  });
});
