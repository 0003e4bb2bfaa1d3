'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { errorMessage } from '@/components/console/errors';
import { formatDateTime } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Plan = RouterOutputs['plans']['list']['data'][number];

export function PlanHistory({ plans }: { plans: Plan[] }) {
  const trpc = useTRPC();
  const history = useInfiniteQuery(trpc.plans.history.infiniteQueryOptions({ limit: 10 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }));
  const name = (id: string | null) => (id ? (plans.find((p) => p.id === id)?.name ?? id) : '—');
  const rows = history.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Section title="Plan history">
      {history.isPending ? (
        <LoadingBlock label="Loading plan history" rows={2} />
      ) : history.isError ? (
        <ErrorState message={errorMessage(history.error)} onRetry={() => history.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No plan changes yet" className="py-6" />
      ) : (
        <>
          <Table label="Plan history">
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Change</Th>
                <Th>Plan</Th>
                <Th>Seats</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <Td className="whitespace-nowrap text-muted tabular-nums">{formatDateTime(c.created_at)}</Td>
                  <Td className="capitalize">{c.kind.toLowerCase().replace(/_/g, ' ')}</Td>
                  <Td>{c.from_plan_id && c.from_plan_id !== c.to_plan_id ? `${name(c.from_plan_id)} → ${name(c.to_plan_id)}` : name(c.to_plan_id ?? c.from_plan_id)}</Td>
                  <Td className="tabular-nums">{c.from_seats !== null && c.from_seats !== c.to_seats ? `${c.from_seats} → ${c.to_seats ?? '—'}` : (c.to_seats ?? '—')}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {history.hasNextPage ? (
            <div className="mt-5 flex justify-center">
              <Button variant="secondary" onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
                Load more
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}
