// Makes our Subscription row match the provider's subscription, and writes the plan history
// (SubscriptionChange) for what changed. Called with the result of our own API calls and from webhooks
// (with the subscription re-read from the provider, so a stale or reordered event cannot roll it back).
// Idempotent: a second sync with the same snapshot changes nothing and records nothing.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import type { Tx } from '@/server/ledger/post-ledger-entry';
import type { SubscriptionSnapshot } from './payment-provider';

export interface SyncOptions {
  actorUserId?: string | null;
  providerEventId?: string | null;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/** Returns our subscription id, or null when the snapshot names an organization or plan we do not have. */
export async function syncSubscription(s: SubscriptionSnapshot, o: SyncOptions = {}): Promise<string | null> {
  const prisma = await db();
  const run = () => prisma.$transaction((tx) => syncInTx(tx, s, o));
  try {
    return await run();
  } catch (err) {
    // Two first syncs (the API call's and a webhook's) raced to insert: the second one updates instead.
    if (isUniqueViolation(err)) return run();
    throw err;
  }
}

/** The plan history's kinds (SubscriptionChange.kind) as audit actions. */
export const PLAN_AUDIT_ACTIONS: Record<string, string> = {
  subscribed: 'plan.subscribe',
  activated: 'plan.activate',
  plan_changed: 'plan.change',
  seats_changed: 'plan.seats_change',
  cancel_scheduled: 'plan.cancel',
  cancel_withdrawn: 'plan.resume',
  canceled: 'plan.end',
  past_due: 'plan.past_due',
  reactivated: 'plan.reactivate',
};

type Change = { kind: string; fromPlanId?: string | null; toPlanId?: string | null; fromSeats?: number | null; toSeats?: number | null };

async function syncInTx(tx: Tx, s: SubscriptionSnapshot, o: SyncOptions): Promise<string | null> {
  const [org, plan] = await Promise.all([
    tx.organization.findUnique({ where: { id: s.organizationId }, select: { id: true } }),
    tx.plan.findUnique({ where: { id: s.planId }, select: { id: true } }),
  ]);
  if (!org || !plan) return null;
  const found = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Subscription" WHERE "providerSubscriptionId" = ${s.providerSubscriptionId} OR id = ${s.localId ?? ''}
    ORDER BY ("providerSubscriptionId" IS NULL) LIMIT 1 FOR UPDATE`;
  const data = {
    planId: s.planId,
    status: s.status,
    seats: s.seats,
    provider: s.provider,
    providerSubscriptionId: s.providerSubscriptionId,
    currentPeriodStart: s.currentPeriodStart,
    currentPeriodEnd: s.currentPeriodEnd,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.status === 'CANCELED' ? (s.canceledAt ?? new Date()) : s.canceledAt,
  };
  const after = subscriptionAuditView(data);
  const record = async (subscriptionId: string, c: Change, before: ReturnType<typeof subscriptionAuditView> | null = null) => {
    await tx.subscriptionChange.create({ data: { subscriptionId, organizationId: s.organizationId, actorUserId: o.actorUserId ?? null, providerEventId: o.providerEventId ?? null, ...c } });
    await recordAudit(tx, {
      accountId: s.organizationId,
      action: PLAN_AUDIT_ACTIONS[c.kind] ?? `plan.${c.kind}`,
      target: { type: 'subscription', id: subscriptionId },
      before,
      after,
    });
  };

  if (found.length === 0) {
    const created = await tx.subscription.create({ data: { ...(s.localId ? { id: s.localId } : {}), organizationId: s.organizationId, ...data }, select: { id: true } });
    await record(created.id, { kind: 'subscribed', toPlanId: s.planId, toSeats: s.seats });
    if (s.status === 'CANCELED') await record(created.id, { kind: 'canceled', fromPlanId: s.planId });
    return created.id;
  }

  const cur = await tx.subscription.findUniqueOrThrow({ where: { id: found[0].id } });
  const changes: Change[] = [];
  if (!cur.providerSubscriptionId) changes.push({ kind: 'subscribed', toPlanId: s.planId, toSeats: s.seats });
  else {
    if (cur.planId !== s.planId) changes.push({ kind: 'plan_changed', fromPlanId: cur.planId, toPlanId: s.planId });
    if (cur.seats !== s.seats) changes.push({ kind: 'seats_changed', toPlanId: s.planId, fromSeats: cur.seats, toSeats: s.seats });
    if (s.status !== 'CANCELED' && cur.cancelAtPeriodEnd !== s.cancelAtPeriodEnd) {
      changes.push({ kind: s.cancelAtPeriodEnd ? 'cancel_scheduled' : 'cancel_withdrawn', fromPlanId: s.planId });
    }
    if (cur.status !== s.status) {
      if (s.status === 'CANCELED') changes.push({ kind: 'canceled', fromPlanId: s.planId, fromSeats: cur.seats });
      else if (s.status === 'PAST_DUE') changes.push({ kind: 'past_due', fromPlanId: s.planId });
      else if (s.status === 'ACTIVE') changes.push({ kind: cur.status === 'INCOMPLETE' ? 'activated' : 'reactivated', toPlanId: s.planId });
    }
  }
  if (changes.length === 0 && sameDates(cur, data)) return cur.id;
  await tx.subscription.update({ where: { id: cur.id }, data });
  for (const c of changes) await record(cur.id, c, cur.providerSubscriptionId ? subscriptionAuditView(cur) : null);
  return cur.id;
}

/** The subscription as the audit log keeps it (the provider's ids left out). */
function subscriptionAuditView(v: { planId: string; status: string; seats: number; cancelAtPeriodEnd: boolean; currentPeriodEnd: Date | null }) {
  return { plan_id: v.planId, status: v.status.toLowerCase(), seats: v.seats, cancel_at_period_end: v.cancelAtPeriodEnd, current_period_end: v.currentPeriodEnd?.toISOString() ?? null };
}

function sameDates(a: { currentPeriodStart: Date | null; currentPeriodEnd: Date | null; canceledAt: Date | null }, b: typeof a): boolean {
  const t = (d: Date | null) => d?.getTime() ?? null;
  return t(a.currentPeriodStart) === t(b.currentPeriodStart) && t(a.currentPeriodEnd) === t(b.currentPeriodEnd) && t(a.canceledAt) === t(b.canceledAt);
}
