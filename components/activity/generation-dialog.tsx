'use client';

// One request's full record (GET /generation's, through tRPC): when, who, what served it and how many
// attempts, tokens (cached, reasoning), cost and cache savings, timings, and the error the client got.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Dialog } from '@/components/console/dialog';
import { errorMessage } from '@/components/console/errors';
import { formatDateTime, formatInteger, formatMs, formatUsd } from '@/components/console/format';
import { StateBadge } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { CopyButton } from '@/components/ui/copy-button';
import { sourceName } from './activity-table';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-3 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words text-foreground">{children}</dd>
    </div>
  );
}

export function GenerationDialog({ id, onClose, keyNames, memberNames }: { id: string | null; onClose: () => void; keyNames: Map<string, string>; memberNames?: Map<string, string> }) {
  const trpc = useTRPC();
  const g = useQuery({ ...trpc.usage.generation.queryOptions({ id: id ?? '' }), enabled: id !== null });
  const d = g.data;
  return (
    <Dialog open={id !== null} onClose={onClose} title="Request details" description={id ? <span className="font-mono text-xs break-all">{id}</span> : undefined} size="lg">
      {g.isPending ? (
        <LoadingBlock label="Loading the record" rows={6} />
      ) : g.isError ? (
        <ErrorState message={errorMessage(g.error)} onRetry={() => g.refetch()} />
      ) : d ? (
        <div className="space-y-5">
          <dl aria-label="Outcome">
            <Row label="Status">
              <span className="inline-flex items-center gap-2">
                <StateBadge state={d.status} />
                {d.http_status ? <span className="text-muted tabular-nums">HTTP {d.http_status}</span> : null}
              </span>
            </Row>
            {d.error ? (
              <Row label="Error">
                <span className="font-mono text-xs">{d.error.code}</span>
                <p className="mt-1">{d.error.message}</p>
              </Row>
            ) : null}
            <Row label="Time">{formatDateTime(d.created_at)}</Row>
            <Row label="Model">
              <span className="font-mono text-xs">{d.model || '—'}</span>
            </Row>
            <Row label="Served by">
              {d.provider_name || '—'}
              {d.upstream_model ? <span className="ml-1 font-mono text-xs text-muted">({d.upstream_model})</span> : null}
              {d.byok ? <span className="ml-2 text-xs text-muted">your own provider key</span> : null}
            </Row>
            <Row label="Attempts">
              {d.attempts > 1 ? `${formatInteger(d.attempts)} (failed over)` : formatInteger(d.attempts)}
              {d.attempt_log ? (
                <ol aria-label="Attempts in order" className="mt-1 list-decimal space-y-0.5 pl-5 text-xs">
                  {d.attempt_log.map((a, i) => (
                    <li key={i}>
                      <span className="font-medium">{a.provider}</span>
                      <span className="text-muted"> · {a.model} · </span>
                      {a.status === null ? 'no answer (connection error or timeout)' : `HTTP ${a.status}`}
                      {i === d.attempt_log!.length - 1 && d.status === 'success' ? <span className="text-muted"> · served</span> : null}
                    </li>
                  ))}
                </ol>
              ) : null}
            </Row>
            <Row label="Finish reason">{d.finish_reason ?? '—'}</Row>
          </dl>
          <dl aria-label="Tokens and cost" className="border-t border-border pt-4">
            <Row label="Tokens in">
              {formatInteger(d.tokens_prompt)}
              {/* A real space, not a margin: copied text and screen readers get "2,006 (1,920 cached)". */}
              {d.native_tokens_cached > 0 ? <span className="text-muted"> ({formatInteger(d.native_tokens_cached)} cached)</span> : null}
            </Row>
            <Row label="Tokens out">
              {formatInteger(d.tokens_completion)}
              {d.native_tokens_reasoning > 0 ? <span className="text-muted"> ({formatInteger(d.native_tokens_reasoning)} reasoning)</span> : null}
            </Row>
            <Row label="Cost">{formatUsd(d.total_cost)}</Row>
            <Row label="Cache savings">{formatUsd(d.cache_discount)}</Row>
            <Row label="Latency">{formatMs(d.latency)}</Row>
            <Row label="First token">{formatMs(d.ttft)}</Row>
          </dl>
          <dl aria-label="Origin" className="border-t border-border pt-4">
            <Row label="Source">{sourceName({ api_key_id: d.api_key_id, app_title: d.app_title }, keyNames)}</Row>
            {memberNames ? <Row label="Member">{d.user_id ? (memberNames.get(d.user_id) ?? 'Former member') : '—'}</Row> : null}
            <Row label="App (X-Title)">{d.app_title ?? '—'}</Row>
            <Row label="Referer">{d.origin || '—'}</Row>
            <Row label="Request id">
              {d.request_id ? (
                <span className="inline-flex items-center gap-2">
                  <span className="font-mono text-xs break-all">{d.request_id}</span>
                  <CopyButton text={d.request_id} label="Copy request id" />
                </span>
              ) : (
                '—'
              )}
            </Row>
          </dl>
        </div>
      ) : null}
    </Dialog>
  );
}
