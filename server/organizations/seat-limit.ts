// How many members an organization may have: with a live subscription on a seat-limited plan, its paid
// seats; otherwise the plan's maxMembers (no subscription = the "free" plan: 3 members). null = no limit.
import type { Prisma } from '@/server/db';
import { BUILTIN_PLANS } from '@/server/billing/plan-data';

export interface SeatLimit {
  limit: number | null;
  plan_id: string;
  /** Human wording of where the limit comes from, for error messages. */
  reason: string;
}

const FREE_PLAN_ID = 'free';

export async function organizationSeatLimit(tx: Prisma.TransactionClient, organizationId: string): Promise<SeatLimit> {
  const sub = await tx.subscription.findFirst({
    where: { organizationId, status: { in: ['ACTIVE', 'TRIALING', 'PAST_DUE'] } },
    orderBy: { createdAt: 'desc' },
    select: { seats: true, plan: { select: { id: true, name: true, seatLimited: true, maxMembers: true } } },
  });
  if (sub) {
    if (sub.plan.seatLimited) return { limit: sub.seats, plan_id: sub.plan.id, reason: `${sub.seats} paid seat${sub.seats === 1 ? '' : 's'} on the ${sub.plan.name} plan` };
    if (sub.plan.maxMembers !== null) return { limit: sub.plan.maxMembers, plan_id: sub.plan.id, reason: `the ${sub.plan.name} plan allows ${sub.plan.maxMembers} members` };
    return { limit: null, plan_id: sub.plan.id, reason: `the ${sub.plan.name} plan has no member limit` };
  }
  const free = await tx.plan.findUnique({ where: { id: FREE_PLAN_ID }, select: { name: true, maxMembers: true } });
  const fallback = BUILTIN_PLANS.find((p) => p.id === FREE_PLAN_ID)!;
  const max = free ? free.maxMembers : fallback.maxMembers;
  const name = free?.name ?? fallback.name;
  return max === null ? { limit: null, plan_id: FREE_PLAN_ID, reason: `the ${name} plan has no member limit` } : { limit: max, plan_id: FREE_PLAN_ID, reason: `the ${name} plan allows ${max} members` };
}
