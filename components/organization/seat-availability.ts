// Seats left for invites: the plan's limit (paid seats, or its member cap) minus members and pending invites
// (each pending invite takes a seat when accepted; accept-invite.ts refuses one past the limit).
export interface SeatAvailability {
  /** null: the plan has no member limit. */
  limit: number | null;
  members: number;
  pending: number;
  /** Seats not taken by members or pending invites (0 at least); null without a limit. */
  free: number | null;
  /** Every seat holds a member: no invite can be accepted now. */
  full: boolean;
}

export function seatAvailability(p: { limit: number | null; members: number; pending: number }): SeatAvailability {
  if (p.limit === null) return { ...p, free: null, full: false };
  return { ...p, free: Math.max(0, p.limit - p.members - p.pending), full: p.members >= p.limit };
}

/** Why these emails cannot all be invited now, or null when there are seats for them. */
export function seatShortfall(s: SeatAvailability, emails: number): string | null {
  if (s.free === null || emails <= s.free) return null;
  const seats = (n: number) => `${n} seat${n === 1 ? '' : 's'}`;
  if (s.full) return `All ${seats(s.limit!)} are taken, so an invite could not be accepted. Add seats or change the plan first.`;
  if (s.free === 0) return `The ${seats(s.limit!)} are taken by members and pending invites. Add seats, change the plan or revoke an invite first.`;
  return `Only ${seats(s.free)} ${s.free === 1 ? 'is' : 'are'} free for ${emails} invites. Add seats or change the plan, or invite fewer people.`;
}
