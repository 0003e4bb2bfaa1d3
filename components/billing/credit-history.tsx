'use client';

// The ledger as people read a statement: each purchase, grant, promotion, refund or dispute on its own
// line, usage one line per UTC day, and the balance after each line (ledger/get-credit-history.ts).
import { useInfiniteQuery } from '@tanstack/react-query';
import { errorMessage } from '@/components/console/errors';
import { formatDate, formatDateTime } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

/** Exact to the micro-dollar, cents at least: a balance after $0.000015 of usage is $9.999985, not "$10.00". */
export function formatUsdExact(v: number): string {
  const digits = Math.min(6, Math.max(2, v.toFixed(6).replace(/0+$/, '').split('.')[1]?.length ?? 0));
  return `${v < 0 ? '-' : ''}$${Math.abs(v).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}
const signedUsd = (v: number) => (v > 0 ? `+${formatUsdExact(v)}` : formatUsdExact(v));

export function CreditHistory() {
  const trpc = useTRPC();
  const history = useInfiniteQuery(trpc.billing.creditHistory.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }));
  const rows = history.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Section id="credit-history" title="Credit history" description="Every change to the balance, newest first; usage is one line per day (UTC).">
      {history.isPending ? (
        <LoadingBlock label="Loading credit history" />
      ) : history.isError ? (
        <ErrorState message={errorMessage(history.error)} onRetry={() => history.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No credit yet">Purchases, grants and usage appear here with the balance after each.</EmptyState>
      ) : (
        <>
          <Table label="Credit history">
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Description</Th>
                <Th className="text-right">Amount</Th>
                <Th className="text-right">Balance</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((l) => (
                <tr key={l.id}>
                  <Td className="whitespace-nowrap text-muted tabular-nums">{l.day ? formatDate(`${l.day}T12:00:00Z`) : formatDateTime(l.at)}</Td>
                  <Td>
                    {l.label}
                    {l.note ? <span className="block max-w-72 truncate text-xs text-muted" title={l.note}>{l.note}</span> : null}
                  </Td>
                  <Td className={cx('text-right whitespace-nowrap tabular-nums', l.amount > 0 ? 'text-emerald-700 dark:text-emerald-300' : '')}>{signedUsd(l.amount)}</Td>
                  <Td className="text-right font-medium whitespace-nowrap tabular-nums">{formatUsdExact(l.balance)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {history.hasNextPage ? (
            <div className="mt-5 flex justify-center">
              <Button variant="secondary" onClick={() => history.fetchNextPage()} disabled={history.isFetchingNextPage}>
                {history.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}
