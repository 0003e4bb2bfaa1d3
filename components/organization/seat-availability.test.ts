import { describe, expect, it } from 'vitest';
import { seatAvailability, seatShortfall } from './seat-availability';

describe('seatAvailability', () => {
  it('counts pending invites against the free seats', () => {
    expect(seatAvailability({ limit: 3, members: 1, pending: 1 })).toMatchObject({ free: 1, full: false });
    expect(seatAvailability({ limit: 3, members: 2, pending: 4 })).toMatchObject({ free: 0, full: false });
    expect(seatAvailability({ limit: 3, members: 3, pending: 0 })).toMatchObject({ free: 0, full: true });
  });

  it('has nothing to say without a limit', () => {
    const s = seatAvailability({ limit: null, members: 40, pending: 9 });
    expect(s).toMatchObject({ free: null, full: false });
    expect(seatShortfall(s, 50)).toBeNull();
  });

  it('explains a shortfall by its cause', () => {
    expect(seatShortfall(seatAvailability({ limit: 3, members: 1, pending: 0 }), 2)).toBeNull();
    expect(seatShortfall(seatAvailability({ limit: 3, members: 1, pending: 0 }), 3)).toBe('Only 2 seats are free for 3 invites. Add seats or change the plan, or invite fewer people.');
    expect(seatShortfall(seatAvailability({ limit: 3, members: 2, pending: 1 }), 1)).toMatch(/taken by members and pending invites/);
    expect(seatShortfall(seatAvailability({ limit: 3, members: 3, pending: 0 }), 1)).toBe('All 3 seats are taken, so an invite could not be accepted. Add seats or change the plan first.');
  });
});
