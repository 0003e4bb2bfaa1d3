'use client';

// Activity: every request of the active account as a row — served, failed, cancelled, and refused at
// admission (402, 429, 403, 503…) — with filters, cursor paging, CSV export, and each row opening the full
// generation record. The same usage list as the Usage page, with include_refused.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatInteger } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { ExportButton } from '@/components/usage/export-button';
import { FilterBar } from '@/components/usage/filter-bar';
import { activityInput, DEFAULT_FILTERS, type UsageFilters } from '@/components/usage/usage-filters';
import { useNameMaps } from '@/components/usage/use-name-maps';
import { useRangeStart } from '@/components/usage/use-range-start';
import { ActivityTable } from './activity-table';
import { GenerationDialog } from './generation-dialog';

const PAGE_SIZE = 50;

export function ActivityPage() {
  const trpc = useTRPC();
  const { account } = useConsoleSession();
  const [filters, setFilters] = useState<UsageFilters>({ ...DEFAULT_FILTERS, status: '' });
  const [openId, setOpenId] = useState<string | null>(null);
  const { from, refresh } = useRangeStart(filters.range);
  const names = useNameMaps();

  const list = useInfiniteQuery({
    ...trpc.usage.list.infiniteQueryOptions({ ...activityInput(filters, from), limit: PAGE_SIZE }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const own = list.data?.pages[0]?.visibility === 'own';

  return (
    <div className="space-y-8">
      <PageHeader
        title="Activity"
        description={`${own ? 'Your requests' : 'Every request'} to ${account.name}'s gateway, including those refused (credit, limits, policy) or failed, with what they cost and why.`}
        actions={
          <>
            <Button variant="secondary" onClick={refresh}>
              Refresh
            </Button>
            <ExportButton filters={filters} from={from} names={names} activity />
          </>
        }
      />

      <FilterBar filters={filters} onChange={setFilters} names={names} withStatus />

      <div aria-busy={list.isPlaceholderData} className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : 'transition-opacity'}>
        <Section title="Requests" description={list.data ? `${formatInteger(rows.length)}${list.hasNextPage ? '+' : ''} shown, newest first. Open one for its full record.` : undefined}>
          {list.isPending ? (
            <LoadingBlock label="Loading activity" rows={5} />
          ) : list.isError ? (
            <ErrorState message={errorMessage(list.error)} onRetry={() => list.refetch()} />
          ) : rows.length === 0 ? (
            <EmptyState title="No requests match these filters">Widen the time range or clear a filter. New requests appear within seconds.</EmptyState>
          ) : (
            <>
              <ActivityTable rows={rows} keyNames={names.keyNames} memberNames={names.memberNames} onOpen={setOpenId} />
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
      <GenerationDialog id={openId} onClose={() => setOpenId(null)} keyNames={names.keyNames} memberNames={names.memberNames} />
    </div>
  );
}
