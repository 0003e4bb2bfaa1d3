'use client';

// Generations as a table: time, model, key, member, tokens, cost, latency, status.
import type { RouterOutputs } from '@/components/console/trpc';
import { formatDateTime, formatInteger, formatMs, formatUsd } from '@/components/console/format';
import { StateBadge } from '@/components/console/status-badge';
import { Table, Td, Th } from '@/components/console/table';

export type UsageRecord = RouterOutputs['usage']['list']['data'][number];

export function UsageTable({
  rows,
  keyNames,
  memberNames,
  label = 'Requests',
}: {
  rows: UsageRecord[];
  keyNames: Map<string, string>;
  /** When given, a Member column (organizations whose caller sees everyone's usage). */
  memberNames?: Map<string, string>;
  label?: string;
}) {
  return (
    <Table label={label}>
      <thead>
        <tr>
          <Th>Time</Th>
          <Th>Model</Th>
          <Th>Source</Th>
          {memberNames ? <Th>Member</Th> : null}
          <Th className="text-right">Tokens in / out</Th>
          <Th className="text-right">Cost</Th>
          <Th className="text-right">Latency</Th>
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className="hover:bg-surface/60">
            <Td className="whitespace-nowrap text-muted tabular-nums" title={r.created_at}>
              {formatDateTime(r.created_at)}
            </Td>
            <Td className="font-mono text-xs whitespace-nowrap">{r.model}</Td>
            <Td className="max-w-48 truncate text-muted">{r.api_key_id ? (keyNames.get(r.api_key_id) ?? 'Deleted key') : r.app_title === 'Switchboard playground' ? 'Playground' : 'Console / token'}</Td>
            {memberNames ? <Td className="max-w-48 truncate text-muted">{r.user_id ? (memberNames.get(r.user_id) ?? 'Former member') : '—'}</Td> : null}
            <Td className="text-right whitespace-nowrap tabular-nums">
              {formatInteger(r.prompt_tokens)} / {formatInteger(r.completion_tokens)}
              {r.cached_tokens > 0 ? <span className="ml-1 text-xs text-muted">({formatInteger(r.cached_tokens)} cached)</span> : null}
            </Td>
            <Td className="text-right font-medium tabular-nums">{formatUsd(r.cost)}</Td>
            <Td className="text-right text-muted tabular-nums">{formatMs(r.latency_ms)}</Td>
            <Td>
              <span title={r.error ? `${r.error.code}: ${r.error.message}` : undefined}>
                <StateBadge state={r.status} />
              </span>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
