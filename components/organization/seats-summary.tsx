'use client';

// Seats used of seats paid (or of the plan's member limit), with pending invites, which become seats.
import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { formatInteger } from '@/components/console/format';
import { Skeleton } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';

export function SeatsSummary() {
  const trpc = useTRPC();
  const { can } = useConsoleSession();
  const plan = useQuery(trpc.plans.current.queryOptions());
  const pending = useQuery({ ...trpc.invites.count.queryOptions(), enabled: can('invites:read') });
  const p = plan.data;
  const limit = p ? (p.subscription && p.plan.seat_limited ? p.subscription.seats : p.plan.max_members) : null;
  const used = p?.member_count ?? 0;
  const share = limit ? Math.min(1, used / limit) : 0;
  return (
    <div className="flex flex-col gap-4 rounded-2xl border border-border bg-surface-raised p-5 shadow-xs sm:flex-row sm:items-center">
      <div className="flex-1">
        <p className="text-sm font-medium text-muted">Seats</p>
        {p ? (
          <p className="mt-1 text-lg font-semibold text-foreground" data-testid="seats">
            {formatInteger(used)} {limit !== null ? `of ${formatInteger(limit)}` : ''} {limit !== null && p.subscription ? 'paid seats used' : 'members'}
            <span className="ml-2 text-sm font-normal text-muted">
              {p.plan.name} plan{limit !== null && !p.subscription ? ` · up to ${limit} members` : ''}
              {pending.data?.pending ? ` · ${pending.data.pending} pending invite${pending.data.pending === 1 ? '' : 's'}` : ''}
            </span>
          </p>
        ) : (
          <Skeleton className="mt-2 h-6 w-48" />
        )}
        {limit !== null ? (
          <div className="mt-3 h-2 max-w-md overflow-hidden rounded-full bg-border/60" role="meter" aria-valuemin={0} aria-valuemax={limit} aria-valuenow={used} aria-label="Seats used">
            <div className={`h-full rounded-full ${share >= 1 ? 'bg-amber-500' : 'bg-accent'}`} style={{ width: `${Math.max(2, share * 100)}%` }} />
          </div>
        ) : null}
      </div>
      {can('plan:manage') ? (
        <ButtonLink href="/plans" variant="secondary">
          {p?.subscription ? 'Change seats' : 'Upgrade plan'}
        </ButtonLink>
      ) : null}
    </div>
  );
}
