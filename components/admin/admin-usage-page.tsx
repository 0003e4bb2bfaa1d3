'use client';

// Operators: usage of every account over a date range — what accounts were charged, what the providers cost us
// and the margin between them — by model, provider or account (server/admin/admin-usage.ts).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BarList } from '@/components/charts/bar-list';
import { errorMessage } from '@/components/console/errors';
import { SelectField, TextField } from '@/components/console/fields';
import { formatCompact, formatInteger, formatPercent, formatUsd } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';

type GroupBy = 'model' | 'provider' | 'account';
const DAY_MS = 86_400_000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const LABEL: Record<GroupBy, string> = { model: 'Model', provider: 'Provider', account: 'Account' };

export function AdminUsagePage() {
  const trpc = useTRPC();
  const [today] = useState(() => new Date());
  const [from, setFrom] = useState(() => isoDate(new Date(today.getTime() - 29 * DAY_MS)));
  const [to, setTo] = useState(() => isoDate(today));
  const [groupBy, setGroupBy] = useState<GroupBy>('model');
  // The range is whole UTC days, `to` included: the query's end is the next midnight (exclusive).
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const input = { from: `${from}T00:00:00Z`, to: valid ? `${isoDate(new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS))}T00:00:00Z` : `${to}T00:00:00Z`, group_by: groupBy };
  const usage = useQuery({ ...trpc.admin.usage.queryOptions(input), enabled: valid });
  const totals = usage.data?.totals;
  const key = (row: Record<string, unknown>) => String(row[groupBy] ?? '—');

  return (
    <div className="space-y-8">
      <PageHeader title="Usage & margin" description="Every account: what we charged, what the providers cost us (BYOK requests cost us nothing; otherwise what the provider reported, else our list price), and the margin." />
      <form aria-label="Usage range" onSubmit={(e) => e.preventDefault()} className="flex flex-wrap items-end gap-4">
        <TextField id="admin-usage-from" label="From" type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
        <TextField id="admin-usage-to" label="To (included)" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} error={valid ? undefined : 'From must be on or before To'} />
        <SelectField id="admin-usage-group" label="Group by" value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
          <option value="model">Model</option>
          <option value="provider">Provider</option>
          <option value="account">Account</option>
        </SelectField>
      </form>

      {!valid ? null : usage.isPending ? (
        <LoadingBlock label="Loading usage" rows={5} />
      ) : usage.isError ? (
        <ErrorState message={errorMessage(usage.error)} onRetry={() => usage.refetch()} />
      ) : (
        <>
          <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Stat label="Charged" value={formatUsd(totals!.charged)} detail={`${formatInteger(totals!.requests)} requests`} />
            <Stat label="Provider cost" value={formatUsd(totals!.provider_cost)} />
            <Stat label="Margin" value={formatUsd(totals!.margin)} detail={totals!.charged > 0 ? `${formatPercent(totals!.margin / totals!.charged, 1)} of charges` : undefined} tone={totals!.margin < 0 ? 'warning' : undefined} />
            <Stat label="Tokens" value={formatCompact(totals!.total_tokens)} detail={`${formatCompact(totals!.prompt_tokens)} prompt · ${formatCompact(totals!.completion_tokens)} completion`} />
          </dl>
          {usage.data.data.length === 0 ? (
            <EmptyState title="No requests in this range" />
          ) : (
            <>
              <Section title={`Margin by ${groupBy}`}>
                <BarList
                  label={`Margin by ${groupBy}`}
                  format={formatUsd}
                  items={usage.data.data.map((r) => ({ key: key(r), label: <span className="font-mono text-xs">{key(r)}</span>, value: r.margin, detail: `of ${formatUsd(r.charged)}` }))}
                />
              </Section>
              <Section title={`By ${groupBy}`}>
                <Table label={`Usage by ${groupBy}`}>
                  <thead>
                    <tr>
                      <Th>{LABEL[groupBy]}</Th>
                      <Th className="text-right">Requests</Th>
                      <Th className="text-right">Tokens</Th>
                      <Th className="text-right">Charged</Th>
                      <Th className="text-right">Provider cost</Th>
                      <Th className="text-right">Margin</Th>
                    </tr>
                  </thead>
                  <tbody>
                    {usage.data.data.map((r) => (
                      <tr key={key(r)}>
                        <Td className="font-mono text-xs">{key(r)}</Td>
                        <Td className="text-right tabular-nums">{formatInteger(r.requests)}</Td>
                        <Td className="text-right tabular-nums">{formatCompact(r.total_tokens)}</Td>
                        <Td className="text-right tabular-nums">{formatUsd(r.charged)}</Td>
                        <Td className="text-right tabular-nums">{formatUsd(r.provider_cost)}</Td>
                        <Td className={`text-right tabular-nums ${r.margin < 0 ? 'text-red-700 dark:text-red-300' : ''}`}>{formatUsd(r.margin)}</Td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </Section>
            </>
          )}
        </>
      )}
    </div>
  );
}
