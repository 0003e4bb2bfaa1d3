'use client';

// One webhook's delivery log, newest first: each event, its state, attempts and the endpoint's last answer.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '@/components/console/errors';
import { SelectField } from '@/components/console/fields';
import { formatDateTime } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { StateBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Webhook = RouterOutputs['webhooks']['list']['data'][number];
type Status = 'pending' | 'succeeded' | 'failed';

export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status | ''>('');
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { webhook_id: webhook.id, limit: 20, ...(status ? { status } : {}) },
      {
        getNextPageParam: (page) => page.next_cursor ?? undefined,
        // Sooner while a delivery is on its way (a test just sent), so its outcome shows without a wait.
        refetchInterval: (query) => (query.state.data?.pages.some((p) => p.data.some((d) => d.status === 'pending' && d.attempts === 0)) ? 1_000 : 5_000),
      },
    ),
  );
  const rows = deliveries.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Section
      title="Delivery log"
      description={<span className="font-mono break-all">{webhook.url}</span>}
      actions={
        <SelectField id="delivery-status" label="Status" labelHidden value={status} onChange={(e) => setStatus(e.target.value as Status | '')}>
          <option value="">All deliveries</option>
          <option value="pending">Pending</option>
          <option value="succeeded">Succeeded</option>
          <option value="failed">Failed</option>
        </SelectField>
      }
    >
      {deliveries.isPending ? (
        <LoadingBlock label="Loading deliveries" />
      ) : deliveries.isError ? (
        <ErrorState message={errorMessage(deliveries.error)} onRetry={() => deliveries.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState title="No deliveries yet">Deliveries appear here when one of the chosen events happens, e.g. when an API key is created, or when you send a test event.</EmptyState>
      ) : (
        <div className="space-y-4">
          <Table label="Deliveries">
            <thead>
              <tr>
                <Th>Event</Th>
                <Th>Status</Th>
                <Th>Attempts</Th>
                <Th>Last answer</Th>
                <Th>Created</Th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <Td className="font-mono text-xs">{d.event_type}</Td>
                  <Td>
                    <StateBadge state={d.status} />
                  </Td>
                  <Td className="tabular-nums">{d.attempts}</Td>
                  <Td className="max-w-xs truncate text-xs" title={d.last_error ?? undefined}>
                    {d.last_http_status ? `HTTP ${d.last_http_status}` : (d.last_error ?? '—')}
                  </Td>
                  <Td className="text-muted">{formatDateTime(d.created_at)}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {deliveries.hasNextPage ? (
            <div className="flex justify-center">
              <Button variant="secondary" onClick={() => deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
                {deliveries.isFetchingNextPage ? 'Loading…' : 'Load older deliveries'}
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </Section>
  );
}
