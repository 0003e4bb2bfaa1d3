'use client';

// The activity log's rows: time (the button that opens the record, so it stays in view when the table
// scrolls sideways on a phone), model and who served it (marked "fell back" when it failed over to it), source, member, app, tokens, cost, latency and time
// to first token, finish reason, and the status with the HTTP status the client got.
import { formatDateTime, formatInteger, formatMs, formatUsd } from '@/components/console/format';
import { StateBadge, StatusBadge } from '@/components/console/status-badge';
import { Table, Td, Th } from '@/components/console/table';
import type { UsageRecord } from '@/components/usage/usage-table';

export function sourceName(r: Pick<UsageRecord, 'api_key_id' | 'app_title'>, keyNames: Map<string, string>): string {
  if (r.api_key_id) return keyNames.get(r.api_key_id) ?? 'Deleted key';
  return r.app_title === 'Switchboard playground' ? 'Playground' : 'Console / token';
}

export function ActivityTable({ rows, keyNames, memberNames, onOpen }: { rows: UsageRecord[]; keyNames: Map<string, string>; memberNames?: Map<string, string>; onOpen: (id: string) => void }) {
  return (
    <Table label="Activity">
      <thead>
        <tr>
          <Th className="sticky left-0 z-10 bg-surface-raised">Time</Th>
          <Th>Status</Th>
          <Th>Model</Th>
          <Th>Provider</Th>
          <Th>Source</Th>
          {memberNames ? <Th>Member</Th> : null}
          <Th>App</Th>
          <Th className="text-right">Tokens in / out</Th>
          <Th className="text-right">Cost</Th>
          <Th className="text-right">Latency</Th>
          <Th className="text-right">First token</Th>
          <Th>Finish</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className="hover:bg-surface/60">
            <Td className="sticky left-0 z-10 bg-surface-raised whitespace-nowrap">
              <button type="button" onClick={() => onOpen(r.id)} className="font-medium text-accent-text tabular-nums underline-offset-2 hover:underline focus-visible:underline" title={r.created_at}>
                {formatDateTime(r.created_at)}
                <span className="sr-only">: open the record of this request</span>
              </button>
            </Td>
            <Td className="whitespace-nowrap">
              <span title={r.error ? `${r.error.code}: ${r.error.message}` : undefined} className="inline-flex items-center gap-1.5">
                <StateBadge state={r.status} />
                {r.http_status && r.http_status !== 200 ? <span className="text-xs text-muted tabular-nums">{r.http_status}</span> : null}
              </span>
            </Td>
            <Td className="font-mono text-xs whitespace-nowrap">{r.model || '—'}</Td>
            <Td className="whitespace-nowrap text-muted">
              <span className="inline-flex items-center gap-1.5">
                {r.provider || '—'}
                {r.attempts > 1 ? (
                  <StatusBadge tone="warning">
                    <span title={`${formatInteger(r.attempts)} upstream attempts: the earlier ones failed and the request failed over`}>fell back</span>
                    <span className="sr-only"> after {formatInteger(r.attempts)} attempts</span>
                  </StatusBadge>
                ) : null}
              </span>
            </Td>
            <Td className="max-w-48 truncate text-muted">{sourceName(r, keyNames)}</Td>
            {memberNames ? <Td className="max-w-48 truncate text-muted">{r.user_id ? (memberNames.get(r.user_id) ?? 'Former member') : '—'}</Td> : null}
            <Td className="max-w-40 truncate text-muted">{r.app_title ?? '—'}</Td>
            <Td className="text-right whitespace-nowrap tabular-nums">
              {formatInteger(r.prompt_tokens)} / {formatInteger(r.completion_tokens)}
            </Td>
            <Td className="text-right font-medium tabular-nums">{formatUsd(r.cost)}</Td>
            <Td className="text-right text-muted tabular-nums">{formatMs(r.latency_ms)}</Td>
            <Td className="text-right text-muted tabular-nums">{formatMs(r.ttft_ms)}</Td>
            <Td className="whitespace-nowrap text-muted">{r.finish_reason ?? (r.error ? r.error.code : '—')}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
