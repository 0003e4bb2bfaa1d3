import { describe, expect, it } from 'vitest';
import { usdNumber } from './fields';

// The console shows these messages under the field by themselves (no "amount:" before them), so each is a
// sentence a person can act on, not zod's own ("Too big: expected number to be <=1000000", "received NaN").
describe('usdNumber messages', () => {
  const message = (schema: ReturnType<typeof usdNumber>, v: number) => schema.safeParse(v).error?.issues[0]?.message;

  it('names what to type: a number, the bounds in dollars, the precision', () => {
    const limit = usdNumber({ min: 0, exclusiveMin: true, max: 1_000_000, decimals: 6 });
    expect(message(limit, Number('abc'))).toBe('Enter an amount in US dollars, such as 25');
    expect(message(limit, 0)).toBe('Enter an amount above $0');
    expect(message(limit, 2_000_000)).toBe('Enter at most $1,000,000');
    expect(message(limit, 0.0000001)).toBe('Use at most six decimals (micro-dollars)');
    const adjustment = usdNumber({ min: -1_000_000, max: 1_000_000, decimals: 2 });
    expect(message(adjustment, -2_000_000)).toBe('Enter at least -$1,000,000');
    expect(message(adjustment, 1.005)).toBe('Use at most two decimals (cents)');
    expect(adjustment.safeParse(-12.5).success).toBe(true);
  });

  it('keeps the messages it is given', () => {
    const amount = usdNumber({ min: 5, max: 10_000, decimals: 2, minMessage: 'at least $5', maxMessage: 'at most $10,000' });
    expect([message(amount, 1), message(amount, 20_000)]).toEqual(['at least $5', 'at most $10,000']);
  });
});
