// Cancel an organization's paid plan at the end of the period it has paid for. The organization keeps the
// plan (and its seats) until then; the provider's customer.subscription.deleted moves it to the free plan.
import { AppError } from '@/server/errors';
import { getCurrentPlan, liveSubscription, type CurrentPlanDto } from './get-plans';
import { paymentProvider } from './payment-provider';
import { syncSubscription } from './sync-subscription';

export async function cancelPlan(p: { organizationId: string; actorUserId: string; planId: string }): Promise<CurrentPlanDto> {
  const sub = await liveSubscription(p.organizationId);
  if (!sub || sub.planId !== p.planId) throw new AppError('not_found', `The organization is not subscribed to the ${p.planId} plan`);
  if (!sub.cancelAtPeriodEnd) {
    const provider = await paymentProvider();
    if (provider.name !== sub.provider) throw new AppError('conflict', `This subscription is managed by the ${sub.provider.toLowerCase()} provider, which this server no longer uses`);
    const snapshot = await provider.setCancelAtPeriodEnd({ providerSubscriptionId: sub.providerSubscriptionId!, cancel: true });
    await syncSubscription(snapshot, { actorUserId: p.actorUserId });
  }
  return getCurrentPlan({ organizationId: p.organizationId });
}
