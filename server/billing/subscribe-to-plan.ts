// Subscribe an organization to a paid plan: a provider subscription with quantity = seats, charged to the
// saved card now (the first invoice is paid or nothing is created). A placeholder row, inserted under the
// organization's row lock, makes concurrent subscribe calls create one subscription; its id travels in
// the provider's metadata so the webhooks find it even before this call has finished.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { subscribeInput, type SubscribeInput } from './billing-inputs';
import { ensureCustomer } from './ensure-customer';
import { getCurrentPlan, memberCount, planOrThrow, type CurrentPlanDto } from './get-plans';
import { defaultPaymentMethodOrThrow } from './payment-methods';
import { paymentProvider } from './payment-provider';
import { recordInvoicePaid } from './record-invoice';
import { syncSubscription } from './sync-subscription';

/** A placeholder whose subscribe call died before the provider answered is abandoned after this. */
const ABANDONED_PLACEHOLDER_MS = 10 * 60_000;

export async function subscribeToPlan(p: { organizationId: string; actorUserId: string; input: SubscribeInput; setupPath: string }): Promise<CurrentPlanDto> {
  const input = subscribeInput.parse(p.input);
  const plan = await planOrThrow(input.plan_id);
  if (plan.pricePerSeatCents === 0) {
    throw new AppError('bad_request', `The ${plan.name} plan needs no subscription: cancel the current plan (DELETE …/plan/{planId}) to return to it`);
  }
  const members = await memberCount(p.organizationId);
  const seats = input.seats ?? Math.max(1, members);
  if (seats < members) throw new AppError('bad_request', `The organization has ${members} members, so it needs at least ${members} seats`, { member_count: members });
  if (plan.maxMembers !== null && members > plan.maxMembers) throw new AppError('bad_request', `The ${plan.name} plan allows at most ${plan.maxMembers} members`);
  const provider = await paymentProvider();
  const method = await defaultPaymentMethodOrThrow(p.organizationId, provider.name, p.setupPath);

  const prisma = await db();
  const claim = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${p.organizationId} FOR UPDATE`;
    await tx.subscription.updateMany({
      where: { organizationId: p.organizationId, providerSubscriptionId: null, status: 'INCOMPLETE', createdAt: { lt: new Date(Date.now() - ABANDONED_PLACEHOLDER_MS) } },
      data: { status: 'CANCELED', canceledAt: new Date() },
    });
    const live = await tx.subscription.findFirst({ where: { organizationId: p.organizationId, status: { not: 'CANCELED' } }, select: { id: true, planId: true, cancelAtPeriodEnd: true, providerSubscriptionId: true } });
    if (live?.providerSubscriptionId && live.planId === plan.id && live.cancelAtPeriodEnd) return { resume: live.providerSubscriptionId, localId: null };
    if (live) {
      throw new AppError('conflict', live.providerSubscriptionId
        ? `The organization already has the ${live.planId} plan: change seats with PUT …/plan/seats, or cancel it first`
        : 'A subscription for this organization is being created; try again shortly', { current_plan_id: live.planId });
    }
    const placeholder = await tx.subscription.create({ data: { organizationId: p.organizationId, planId: plan.id, status: 'INCOMPLETE', seats, provider: provider.name }, select: { id: true } });
    return { resume: null, localId: placeholder.id };
  });

  if (claim.resume !== null) {
    // Subscribing again to a plan that is set to end: keep it instead.
    const snapshot = await provider.setCancelAtPeriodEnd({ providerSubscriptionId: claim.resume, cancel: false });
    await syncSubscription(snapshot, { actorUserId: p.actorUserId });
    return getCurrentPlan({ organizationId: p.organizationId });
  }

  const localId = claim.localId;
  let result;
  try {
    const priceId = await provider.ensurePlanPrice(plan);
    if (priceId && priceId !== plan.stripePriceId) await prisma.plan.update({ where: { id: plan.id }, data: { stripePriceId: priceId } });
    const customerId = await ensureCustomer(provider, p.organizationId);
    result = await provider.createSubscription({
      localId, organizationId: p.organizationId, plan, priceId, seats, customerId, paymentMethodId: method.providerId, idempotencyKey: `subscribe:${localId}`,
    });
  } catch (err) {
    await prisma.subscription.deleteMany({ where: { id: localId, providerSubscriptionId: null } });
    throw err;
  }
  await syncSubscription(result.subscription, { actorUserId: p.actorUserId });
  // The first invoice was paid synchronously: grant its credit now (the webhook, when it comes, is a no-op).
  if (result.latestInvoice?.paid) await recordInvoicePaid(result.latestInvoice, { provider });
  return getCurrentPlan({ organizationId: p.organizationId });
}
