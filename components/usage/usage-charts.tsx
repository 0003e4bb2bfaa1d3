'use client';

// Charts of the usage page, from the metrics of the filtered range: spend, tokens, cached share and
// latency per period, and spend per model.
import { BarChart } from '@/components/charts/bar-chart';
import { BarList } from '@/components/charts/bar-list';
import { LineChart } from '@/components/charts/line-chart';
import { formatCompact, formatInteger, formatMs, formatPercent, formatUsd } from '@/components/console/format';
import type { RouterOutputs } from '@/components/console/trpc';

type Metrics = RouterOutputs['usage']['metrics'];

function bucketLabel(iso: string, interval: 'hour' | 'day') {
  const d = new Date(iso);
  return interval === 'hour'
    ? d.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: false })
    : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}


function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 rounded-2xl border border-border bg-surface-raised p-5 shadow-xs">
      <h3 className="mb-4 text-sm font-semibold text-foreground">{title}</h3>
      {children}
    </div>
  );
}

/** Spend per API key or per member: a ranked list, or a line saying there is none. */
function Breakdown({ title, items }: { title: string; items: { key: string; label: string; spend: number; requests: number; tokens: number }[] }) {
  return (
    <Panel title={title}>
      {items.length === 0 ? (
        <p className="text-sm text-muted">No requests in this range.</p>
      ) : (
        <BarList
          label={title}
          format={formatUsd}
          items={items.map((i) => ({ key: i.key, label: i.label, value: i.spend, detail: `${formatCompact(i.requests)} req · ${formatCompact(i.tokens)} tok` }))}
        />
      )}
    </Panel>
  );
}

export function UsageCharts({ metrics, keyNames, memberNames }: { metrics: Metrics; keyNames: Map<string, string>; memberNames?: Map<string, string> }) {
  const per = metrics.interval === 'hour' ? 'hour' : 'day';
  const labels = metrics.series.map((s) => bucketLabel(s.bucket, metrics.interval));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Panel title={`Spend per ${per}`}>
        <BarChart label={`Spend per ${per}`} labels={labels} formatY={formatUsd} unit="usd" series={[{ name: 'Spend', swatch: 'fill-accent', values: metrics.series.map((s) => s.spend) }]} />
      </Panel>
      <Panel title={`Tokens per ${per}`}>
        <BarChart
          label={`Tokens per ${per}`}
          labels={labels}
          formatY={formatInteger}
          unit="count"
          series={[
            { name: 'Prompt', swatch: 'fill-accent', values: metrics.series.map((s) => s.prompt_tokens) },
            { name: 'Completion', swatch: 'fill-indigo-300 dark:fill-indigo-400/70', values: metrics.series.map((s) => s.completion_tokens) },
          ]}
        />
      </Panel>
      <Panel title="Cached share of prompt tokens">
        <LineChart
          label="Cached share of prompt tokens"
          labels={labels}
          max={1}
          formatY={(v) => formatPercent(v)}
          unit="ratio"
          series={[{ name: 'Cached', swatch: 'fill-emerald-500', stroke: 'stroke-emerald-500', values: metrics.series.map((s) => (s.prompt_tokens > 0 ? s.cache_hit_ratio : null)) }]}
        />
      </Panel>
      <Panel title="Latency (successful requests)">
        <LineChart
          label="Latency"
          labels={labels}
          formatY={formatMs}
          unit="ms"
          series={[
            { name: 'p50', swatch: 'fill-accent', stroke: 'stroke-accent', values: metrics.series.map((s) => s.latency_ms.p50) },
            { name: 'p95', swatch: 'fill-amber-500', stroke: 'stroke-amber-500', values: metrics.series.map((s) => s.latency_ms.p95) },
          ]}
        />
      </Panel>
      <Breakdown
        title="Spend per API key"
        items={metrics.by_key.map((k) => ({ key: k.api_key_id ?? 'none', label: k.api_key_id ? (keyNames.get(k.api_key_id) ?? 'Deleted key') : 'Console / token', spend: k.spend, requests: k.requests, tokens: k.total_tokens }))}
      />
      {memberNames ? (
        <Breakdown
          title="Spend per member"
          items={metrics.by_member.map((m) => ({ key: m.user_id ?? 'none', label: m.user_id ? (memberNames.get(m.user_id) ?? 'Former member') : 'Deleted user', spend: m.spend, requests: m.requests, tokens: m.total_tokens }))}
        />
      ) : null}
      <div className="lg:col-span-2">
        <Panel title="Spend per model">
          {metrics.by_model.length === 0 ? (
            <p className="text-sm text-muted">No requests in this range.</p>
          ) : (
            <BarList
              label="Spend per model"
              format={formatUsd}
              items={metrics.by_model.map((m) => ({
                key: m.model,
                label: <span className="font-mono text-xs">{m.model}</span>,
                value: m.spend,
                detail: `${formatCompact(m.requests)} req · ${formatCompact(m.prompt_tokens + m.completion_tokens)} tok · p50 ${formatMs(m.latency_ms.p50)}`,
              }))}
            />
          )}
        </Panel>
      </div>
    </div>
  );
}
