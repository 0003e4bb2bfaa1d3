'use client';

// Usage of the active account: filters (time range, model, key, member), totals and charts, the request
// table with cursor paging, and a CSV export of everything the filters select.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatCompact, formatInteger, formatMs, formatPercent, formatUsd } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { ExportButton } from './export-button';
import { FilterBar } from './filter-bar';
import { UsageCharts } from './usage-charts';
import { DEFAULT_FILTERS, listInput, metricsInput, type UsageFilters } from './usage-filters';
import { UsageTable } from './usage-table';
import { useNameMaps } from './use-name-maps';
import { useRangeStart } from './use-range-start';

const PAGE_SIZE = 50;

export function UsagePage() {
  const trpc = useTRPC();
  const { account } = useConsoleSession();
  const [filters, setFilters] = useState<UsageFilters>(DEFAULT_FILTERS);
  const { from, refresh } = useRangeStart(filters.range);
  const names = useNameMaps();

  // While new filters load, the previous figures stay (dimmed) instead of flashing back to skeletons.
  const metrics = useQuery({ ...trpc.usage.metrics.queryOptions(metricsInput(filters, from)), placeholderData: keepPreviousData });
  const list = useInfiniteQuery({
    ...trpc.usage.list.infiniteQueryOptions({ ...listInput(filters, from), limit: PAGE_SIZE }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
    placeholderData: keepPreviousData,
  });
  const updating = metrics.isPlaceholderData || list.isPlaceholderData;
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const totals = metrics.data?.totals;
  const own = metrics.data?.visibility === 'own';

  return (
    <div className="space-y-8">
      <PageHeader
        title="Usage"
        description={own ? `Your requests billed to ${account.name}.` : `Every request billed to ${account.name}, with its tokens, cost and latency.`}
        actions={
          <>
            <Button variant="secondary" onClick={refresh}>
              Refresh
            </Button>
            <ExportButton filters={filters} from={from} names={names} />
          </>
        }
      />

      <FilterBar filters={filters} onChange={setFilters} names={names} />

      <div aria-busy={updating} className={updating ? 'space-y-8 opacity-60 transition-opacity' : 'space-y-8 transition-opacity'}>
        {metrics.isError ? (
          <ErrorState message={errorMessage(metrics.error)} onRetry={() => metrics.refetch()} />
        ) : (
          <dl className="grid grid-cols-2 gap-4 lg:grid-cols-5">
            <Stat label="Requests" value={totals ? formatInteger(totals.requests) : '…'} detail={totals ? `${formatPercent(totals.error_rate, 1)} errors` : undefined} />
            <Stat label="Spend" value={totals ? formatUsd(totals.spend) : '…'} detail={totals && totals.cache_savings > 0 ? `${formatUsd(totals.cache_savings)} saved by caching` : undefined} />
            <Stat label="Tokens" value={totals ? formatCompact(totals.prompt_tokens + totals.completion_tokens) : '…'} detail={totals ? `${formatCompact(totals.prompt_tokens)} in · ${formatCompact(totals.completion_tokens)} out` : undefined} />
            <Stat label="Cached" value={totals ? formatPercent(totals.cache_hit_ratio) : '…'} detail="of prompt tokens" />
            <Stat label="Latency p50" value={totals ? formatMs(totals.latency_ms.p50) : '…'} detail={totals ? `p95 ${formatMs(totals.latency_ms.p95)} · first token ${formatMs(totals.ttft_ms.p50)}` : undefined} className="col-span-2 lg:col-span-1" />
          </dl>
        )}

        {metrics.isPending ? <LoadingBlock label="Loading charts" rows={6} /> : metrics.data ? <UsageCharts metrics={metrics.data} keyNames={names.keyNames} memberNames={names.memberNames} /> : null}
        {filters.apiKeyId ? <p className="-mt-4 text-xs text-muted">Totals and charts cover the time range, model and member; the key filter applies to the table.</p> : null}

        <Section title="Requests" description={list.data ? `${formatInteger(rows.length)}${list.hasNextPage ? '+' : ''} shown, newest first` : undefined}>
          {list.isPending ? (
            <LoadingBlock label="Loading requests" rows={5} />
          ) : list.isError ? (
            <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
          ) : rows.length === 0 ? (
            <EmptyState title="No requests match these filters">Widen the time range or clear a filter. New requests appear within seconds.</EmptyState>
          ) : (
            <>
              <UsageTable rows={rows} keyNames={names.keyNames} memberNames={names.memberNames} />
              {list.hasNextPage ? (
                <div className="mt-5 flex justify-center">
                  <Button variant="secondary" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                    {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </Section>
      </div>
    </div>
  );
}
