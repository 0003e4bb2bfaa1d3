'use client';

// Overview of the active account: balance (paid and promotional), this month's spend with a chart, the
// latest requests, and a warning with a way to add credit when the balance runs low.
import { useQuery } from '@tanstack/react-query';
import { BarChart } from '@/components/charts/bar-chart';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatInteger, formatUsd } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';
import { UsageTable } from '@/components/usage/usage-table';
import { useNameMaps } from '@/components/usage/use-name-maps';
import { BalanceCards } from './balance-cards';
import { LowBalanceNotice } from './low-balance-notice';

function monthStart(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

const dayLabel = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function OverviewPage() {
  const trpc = useTRPC();
  const { account, can } = useConsoleSession();
  const balance = useQuery(trpc.billing.balance.queryOptions());
  const metrics = useQuery(trpc.usage.metrics.queryOptions({ from: monthStart(), interval: 'day' }));
  const recent = useQuery(trpc.usage.list.queryOptions({ limit: 5 }));
  const names = useNameMaps();
  const own = metrics.data?.visibility === 'own';

  return (
    <div className="space-y-8">
      <PageHeader
        title="Overview"
        description={account.kind === 'personal' ? 'Your personal account: credit, spend and recent requests.' : `${account.name}: credit, spend and recent requests.`}
        actions={
          can('keys:create') ? (
            <ButtonLink href="/keys" variant="secondary">
              Manage API keys
            </ButtonLink>
          ) : null
        }
      />

      {balance.data ? <LowBalanceNotice balance={balance.data} /> : null}

      <BalanceCards balance={balance} metrics={metrics} own={own} />

      <Section title={own ? 'Your spend this month' : 'Spend this month'} description="Per day, in UTC.">
        {metrics.isPending ? (
          <LoadingBlock label="Loading spend" rows={4} />
        ) : metrics.isError ? (
          <ErrorState message={errorMessage(metrics.error)} onRetry={() => metrics.refetch()} />
        ) : (
          <BarChart
            label="Spend per day this month"
            labels={metrics.data.series.map((s) => dayLabel(s.bucket))}
            series={[{ name: 'Spend', swatch: 'fill-accent', values: metrics.data.series.map((s) => s.spend) }]}
            formatY={formatUsd}
            unit="usd"
          />
        )}
      </Section>

      <Section
        title="Recent requests"
        description={metrics.data ? `${formatInteger(metrics.data.totals.requests)} this month` : undefined}
        actions={
          <ButtonLink href="/usage" variant="ghost" size="sm">
            View all usage →
          </ButtonLink>
        }
      >
        {recent.isPending ? (
          <LoadingBlock label="Loading recent requests" />
        ) : recent.isError ? (
          <ErrorState message={errorMessage(recent.error)} onRetry={() => recent.refetch()} />
        ) : recent.data.data.length === 0 ? (
          <EmptyState
            title="No requests yet"
            action={
              <div className="flex flex-wrap justify-center gap-2">
                {can('keys:create') ? <ButtonLink href="/keys">Create an API key</ButtonLink> : null}
                <ButtonLink href="/playground" variant="secondary">
                  Try the playground
                </ButtonLink>
              </div>
            }
          >
            Requests made with this account&apos;s keys, tokens and the playground appear here with their tokens and cost.
          </EmptyState>
        ) : (
          <UsageTable label="Recent requests" rows={recent.data.data} keyNames={names.keyNames} memberNames={names.memberNames} />
        )}
      </Section>
    </div>
  );
}
