import { describe, expect, it } from 'vitest';
import { seatsInput, subscribeInput } from './billing-inputs';

// The plans page shows the schema's message under its Seats field: a sentence, not zod's own wording.
describe('seat counts', () => {
  const message = (v: number) => seatsInput.safeParse({ seats: v }).error?.issues[0]?.message;

  it('says what to enter', () => {
    expect(message(0)).toBe('Enter at least 1 seat');
    expect(message(1.5)).toBe('Enter a whole number of seats');
    expect(message(100_000)).toBe('Enter at most 10,000 seats');
    expect(message(Number(''))).toBe('Enter at least 1 seat');
    expect(message(NaN)).toBe('Enter a number of seats');
    expect(subscribeInput.safeParse({ plan_id: 'teams', seats: 0 }).error?.issues[0]?.message).toBe('Enter at least 1 seat');
    expect(subscribeInput.safeParse({ plan_id: 'teams' }).success).toBe(true);
    expect(message(3)).toBeUndefined();
  });
});
