'use client';

import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '@/components/console/errors';
import { formatCompact, formatInteger, formatUsd } from '@/components/console/format';
import { Stat } from '@/components/console/stat';
import { ErrorState, Skeleton } from '@/components/console/states';
import type { RouterOutputs } from '@/components/console/trpc';

type Balance = RouterOutputs['billing']['balance'];
type Metrics = RouterOutputs['usage']['metrics'];

export function BalanceCards({ balance, metrics, own }: { balance: UseQueryResult<Balance, unknown>; metrics: UseQueryResult<Metrics, unknown>; own: boolean }) {
  if (balance.isError) return <ErrorState message={errorMessage(balance.error)} onRetry={() => balance.refetch()} />;
  const b = balance.data;
  const totals = metrics.data?.totals;
  const loading = <Skeleton className="h-7 w-24" />;
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      {b && !b.amounts ? (
        <Stat
          label="Credit"
          value={b.isDepleted ? 'Depleted' : 'Available'}
          tone={b.isDepleted ? 'warning' : undefined}
          detail="Your role shows whether credit remains, not the amount."
        />
      ) : (
        <Stat
          label="Balance"
          value={b ? formatUsd(b.balance) : loading}
          tone={b?.isDepleted ? 'warning' : undefined}
          detail={b ? `${formatUsd(b.paid)} paid · ${formatUsd(b.promotional)} promotional${b.reserved > 0 ? ` · ${formatUsd(b.reserved)} held by the gateway for requests in flight` : ''}` : undefined}
        />
      )}
      <Stat
        label={own ? 'Your spend this month' : 'Spend this month'}
        value={totals ? formatUsd(totals.spend) : loading}
        detail={totals ? `${formatInteger(totals.requests)} requests${totals.errors ? ` · ${formatInteger(totals.errors)} errors` : ''}` : undefined}
      />
      <Stat
        label="Tokens this month"
        value={totals ? formatCompact(totals.prompt_tokens + totals.completion_tokens) : loading}
        detail={totals ? `${formatCompact(totals.prompt_tokens)} in · ${formatCompact(totals.completion_tokens)} out · ${Math.round(totals.cache_hit_ratio * 100)}% cached` : undefined}
      />
    </dl>
  );
}
