'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { errorMessage } from '@/components/console/errors';
import { formatDateTime, formatUsd } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { StateBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

const KIND: Record<string, string> = { checkout: 'Checkout', direct: 'Saved card', auto_top_up: 'Auto top-up', subscription: 'Plan invoice', invoice: 'Plan invoice' };

export function PaymentHistory() {
  const trpc = useTRPC();
  const payments = useInfiniteQuery(trpc.billing.payments.infiniteQueryOptions({ limit: 10 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }));
  const rows = payments.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Section id="payments" title="Payment history">
      {payments.isPending ? (
        <LoadingBlock label="Loading payments" />
      ) : payments.isError ? (
        <ErrorState message={errorMessage(payments.error)} onRetry={() => payments.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No payments yet">Purchases, auto top-ups and plan invoices appear here with their receipts.</EmptyState>
      ) : (
        <>
          <Table label="Payments">
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Type</Th>
                <Th className="text-right">Amount</Th>
                <Th className="text-right">Credit</Th>
                <Th>Status</Th>
                <ActionsTh>Receipt</ActionsTh>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id}>
                  <Td className="whitespace-nowrap text-muted tabular-nums">{formatDateTime(p.created_at)}</Td>
                  <Td>
                    {KIND[p.kind] ?? p.kind}
                    {p.failure_reason ? <span className="block max-w-64 truncate text-xs text-muted" title={p.failure_reason}>{p.failure_reason}</span> : null}
                  </Td>
                  <Td className="text-right tabular-nums">
                    {formatUsd(p.amount)}
                    {p.refunded_amount_cents > 0 ? <span className="block text-xs text-muted">{formatUsd(p.refunded_amount_cents / 100)} refunded</span> : null}
                  </Td>
                  <Td className="text-right tabular-nums">{p.credited_at ? formatUsd(p.credit) : '—'}</Td>
                  <Td>
                    <StateBadge state={p.status} />
                  </Td>
                  <ActionsTd>
                    {p.receipt_url ? (
                      <a href={p.receipt_url} target="_blank" rel="noreferrer" className="font-medium text-accent-text hover:underline">
                        Receipt<span className="sr-only"> for the payment of {formatUsd(p.amount)} (opens in a new tab)</span>
                      </a>
                    ) : (
                      <span className="text-muted">—</span>
                    )}
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
          {payments.hasNextPage ? (
            <div className="mt-5 flex justify-center">
              <Button variant="secondary" onClick={() => payments.fetchNextPage()} disabled={payments.isFetchingNextPage}>
                {payments.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
}
