// Plans and subscriptions as clients see them.
import { microsToUsd } from '@/server/ledger/money';

export const planSelect = {
  id: true,
  name: true,
  description: true,
  pricePerSeatCents: true,
  currency: true,
  interval: true,
  includedCreditMicrosPerSeat: true,
  maxMembers: true,
  seatLimited: true,
  features: true,
  stripePriceId: true,
  active: true,
} as const;

export interface PlanRow {
  id: string;
  name: string;
  description: string;
  pricePerSeatCents: number;
  currency: string;
  interval: string;
  includedCreditMicrosPerSeat: bigint;
  maxMembers: number | null;
  seatLimited: boolean;
  features: unknown;
  stripePriceId: string | null;
  active: boolean;
}

export function toPlanDto(p: PlanRow) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price_per_seat: p.pricePerSeatCents / 100,
    price_per_seat_cents: p.pricePerSeatCents,
    currency: p.currency,
    interval: p.interval,
    included_credit_per_seat: microsToUsd(p.includedCreditMicrosPerSeat),
    max_members: p.maxMembers,
    seat_limited: p.seatLimited,
    features: Array.isArray(p.features) ? (p.features as unknown[]).filter((f): f is string => typeof f === 'string') : [],
  };
}
export type PlanDto = ReturnType<typeof toPlanDto>;

export const subscriptionSelect = {
  id: true,
  planId: true,
  status: true,
  seats: true,
  provider: true,
  providerSubscriptionId: true,
  currentPeriodStart: true,
  currentPeriodEnd: true,
  cancelAtPeriodEnd: true,
  canceledAt: true,
  createdAt: true,
} as const;

export function toSubscriptionDto(s: {
  id: string;
  planId: string;
  status: string;
  seats: number;
  provider: string;
  providerSubscriptionId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  createdAt: Date;
}) {
  return {
    id: s.id,
    plan_id: s.planId,
    status: s.status.toLowerCase(),
    seats: s.seats,
    provider: s.provider.toLowerCase(),
    provider_subscription_id: s.providerSubscriptionId,
    current_period_start: s.currentPeriodStart?.toISOString() ?? null,
    current_period_end: s.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    canceled_at: s.canceledAt?.toISOString() ?? null,
    created_at: s.createdAt.toISOString(),
  };
}
export type SubscriptionDto = ReturnType<typeof toSubscriptionDto>;

export function toPlanChangeDto(c: { id: string; kind: string; fromPlanId: string | null; toPlanId: string | null; fromSeats: number | null; toSeats: number | null; actorUserId: string | null; providerEventId: string | null; createdAt: Date }) {
  return {
    id: c.id,
    kind: c.kind,
    from_plan_id: c.fromPlanId,
    to_plan_id: c.toPlanId,
    from_seats: c.fromSeats,
    to_seats: c.toSeats,
    actor_user_id: c.actorUserId,
    provider_event_id: c.providerEventId,
    created_at: c.createdAt.toISOString(),
  };
}
