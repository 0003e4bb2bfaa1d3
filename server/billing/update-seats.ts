// Change the seat count of an organization's paid plan. Added seats are charged now, pro rata for the rest
// of the period; removed seats are credited against the next invoice. Seats never go below the number of
// members (remove members first).
import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors';
import { getCurrentPlan, liveSubscription, memberCount, type CurrentPlanDto } from './get-plans';
import { paymentProvider } from './payment-provider';
import { recordInvoicePaid } from './record-invoice';
import { syncSubscription } from './sync-subscription';

export interface SeatChangeDto extends CurrentPlanDto {
  /** What the change costs now (negative: credit on the next invoice); null when unchanged or unknown. */
  proration: { amount: number; amount_cents: number } | null;
}

export async function updateSeats(p: { organizationId: string; actorUserId: string; seats: number }): Promise<SeatChangeDto> {
  const sub = await liveSubscription(p.organizationId);
  if (!sub) throw new AppError('conflict', 'The organization has no paid plan: subscribe first (POST …/plan)');
  const members = await memberCount(p.organizationId);
  if (p.seats < members) {
    throw new AppError('bad_request', `The organization has ${members} members: seats cannot go below that (remove members first)`, { member_count: members, seats: sub.seats });
  }
  if (p.seats === sub.seats) return { ...(await getCurrentPlan({ organizationId: p.organizationId })), proration: null };
  const provider = await paymentProvider();
  if (provider.name !== sub.provider) throw new AppError('conflict', `This subscription is managed by the ${sub.provider.toLowerCase()} provider, which this server no longer uses`);
  const result = await provider.updateSubscriptionSeats({
    providerSubscriptionId: sub.providerSubscriptionId!,
    itemId: null,
    seats: p.seats,
    idempotencyKey: `seats:${sub.id}:${p.seats}:${randomUUID()}`,
  });
  await syncSubscription(result.subscription, { actorUserId: p.actorUserId });
  if (result.latestInvoice?.paid && result.latestInvoice.billingReason === 'subscription_update') await recordInvoicePaid(result.latestInvoice, { provider });
  const current = await getCurrentPlan({ organizationId: p.organizationId });
  return { ...current, proration: result.prorationCents === null ? null : { amount: result.prorationCents / 100, amount_cents: result.prorationCents } };
}
