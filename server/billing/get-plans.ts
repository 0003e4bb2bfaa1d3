// Reading plans: the catalog, an organization's current plan (the free plan when it has no live
// subscription), one plan's details, and the plan history.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { encodeCursor, listQuery, olderThan } from './billing-inputs';
import { paymentProvider } from './payment-provider';
import { planSelect, subscriptionSelect, toPlanChangeDto, toPlanDto, toSubscriptionDto, type PlanDto, type SubscriptionDto } from './plan-dto';
import { syncSubscription } from './sync-subscription';

export const FREE_PLAN_ID = 'free';

export async function listPlans(): Promise<{ data: PlanDto[] }> {
  const prisma = await db();
  const plans = await prisma.plan.findMany({ where: { active: true }, orderBy: [{ sortOrder: 'asc' }, { id: 'asc' }], select: planSelect });
  return { data: plans.map(toPlanDto) };
}

export async function planOrThrow(planId: string) {
  const prisma = await db();
  const plan = await prisma.plan.findUnique({ where: { id: planId }, select: planSelect });
  if (!plan || !plan.active) throw new AppError('not_found', `Plan ${planId} not found`);
  return plan;
}

/** The organization's live subscription (anything not canceled that the provider knows), or null. */
export async function liveSubscription(organizationId: string) {
  const prisma = await db();
  const sub = await prisma.subscription.findFirst({
    where: { organizationId, status: { not: 'CANCELED' }, providerSubscriptionId: { not: null } },
    orderBy: { createdAt: 'desc' },
    select: subscriptionSelect,
  });
  // The sandbox has no clock: a subscription whose period ended is brought up to date when read.
  if (sub?.provider === 'SANDBOX' && sub.currentPeriodEnd && sub.currentPeriodEnd.getTime() <= Date.now()) {
    const provider = await paymentProvider().catch(() => null);
    const snapshot = provider?.name === 'SANDBOX' ? await provider.retrieveSubscription(sub.providerSubscriptionId!) : null;
    if (snapshot && snapshot.status === 'CANCELED') {
      await syncSubscription(snapshot);
      return null;
    }
  }
  return sub;
}

export async function memberCount(organizationId: string): Promise<number> {
  const prisma = await db();
  return prisma.membership.count({ where: { organizationId } });
}

export interface CurrentPlanDto {
  plan: PlanDto;
  subscription: SubscriptionDto | null;
  member_count: number;
  /** Credit the plan adds with each paid monthly invoice (USD). */
  included_credit_per_period: number;
}

export async function getCurrentPlan(p: { organizationId: string }): Promise<CurrentPlanDto> {
  const [sub, members] = await Promise.all([liveSubscription(p.organizationId), memberCount(p.organizationId)]);
  const plan = toPlanDto(await planOrThrow(sub?.planId ?? FREE_PLAN_ID));
  const seats = sub?.seats ?? 0;
  return {
    plan,
    subscription: sub ? toSubscriptionDto(sub) : null,
    member_count: members,
    included_credit_per_period: Math.round(plan.included_credit_per_seat * seats * 1e6) / 1e6,
  };
}

export async function getPlanDetails(p: { organizationId: string; planId: string }): Promise<PlanDto & { current: boolean }> {
  const [plan, sub] = await Promise.all([planOrThrow(p.planId), liveSubscription(p.organizationId)]);
  return { ...toPlanDto(plan), current: (sub?.planId ?? FREE_PLAN_ID) === plan.id };
}

export async function getPlanHistory(p: { organizationId: string; query: { limit?: number; cursor?: string } }) {
  const q = listQuery.parse(p.query);
  const prisma = await db();
  const rows = await prisma.subscriptionChange.findMany({
    where: { organizationId: p.organizationId, ...olderThan(q.cursor) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: { id: true, kind: true, fromPlanId: true, toPlanId: true, fromSeats: true, toSeats: true, actorUserId: true, providerEventId: true, createdAt: true },
  });
  const page = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return { data: page.map(toPlanChangeDto), has_more: hasMore, next_cursor: hasMore ? encodeCursor(page[page.length - 1]) : null };
}
