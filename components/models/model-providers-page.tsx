'use client';

// One model's providers, as OpenRouter shows them: each endpoint's provider, prices, context and output
// limits, its status now (from the health of the server's keys for it) and this server's recent latency and
// throughput to it. Requests go to the first healthy provider in routing order; the others are fallbacks.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { errorMessage } from '@/components/console/errors';
import { formatCompact, formatMs, formatPrice, perMillion } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { StatusBadge, type Tone } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';

const STATUS: Record<string, { label: string; tone: Tone; help: string }> = {
  healthy: { label: 'Healthy', tone: 'success', help: 'Taking requests' },
  half_open: { label: 'Recovering', tone: 'warning', help: 'Trying again after errors' },
  cooling: { label: 'Rate limited', tone: 'warning', help: 'Paused briefly after a rate limit; requests go to the next provider' },
  open: { label: 'Down', tone: 'danger', help: 'Failing; requests go to the next provider' },
  unconfigured: { label: 'Not configured', tone: 'neutral', help: 'The server has no credentials for it' },
  disabled: { label: 'Disabled', tone: 'neutral', help: 'Turned off by the operator' },
};

export function ModelProvidersPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const model = useQuery(trpc.models.providers.queryOptions({ id }, { refetchInterval: 15_000 }));
  const back = (
    <Link href="/models" className="text-sm font-medium text-accent-text hover:underline">
      ← All models
    </Link>
  );
  if (model.isPending) return <LoadingBlock label="Loading providers" rows={4} />;
  if (model.isError) {
    return (
      <div className="space-y-6">
        {back}
        <ErrorState title={model.error.data?.httpStatus === 404 ? 'Model not found' : undefined} message={errorMessage(model.error)} />
      </div>
    );
  }
  const m = model.data;
  return (
    <div className="space-y-8">
      {back}
      <PageHeader
        title={m.name}
        description={
          <>
            <span className="font-mono text-xs">{m.id}</span> — {m.description}
          </>
        }
        actions={
          <ButtonLink href={`/playground?model=${encodeURIComponent(m.id)}`} variant="secondary">
            Try in playground
          </ButtonLink>
        }
      />
      <Section
        title="Providers"
        description="Requests go to the first healthy provider, in this order; when one fails or is rate limited, the next takes over (your usage shows which one answered). Latency and throughput are this server's recent measurements."
      >
        {m.endpoints.length === 0 ? (
          <EmptyState title="No providers serve this model">Ask the operator to add an endpoint for it.</EmptyState>
        ) : (
          <Table label={`Providers of ${m.id}`}>
            <thead>
              <tr>
                <Th>Provider</Th>
                <Th>Status</Th>
                <Th>Latency</Th>
                <Th>Throughput</Th>
                <Th>Input / 1M</Th>
                <Th>Output / 1M</Th>
                <Th>Context</Th>
                <Th>Max output</Th>
              </tr>
            </thead>
            <tbody>
              {m.endpoints.map((e) => {
                const status = STATUS[e.status] ?? { label: e.status, tone: 'neutral' as Tone, help: '' };
                return (
                  <tr key={`${e.provider}-${e.upstream_model}`}>
                    <Td>
                      <div className="font-medium">{e.provider_name}</div>
                      <div className="font-mono text-xs text-muted">{e.provider}</div>
                    </Td>
                    <Td>
                      <StatusBadge tone={status.tone}>{status.label}</StatusBadge>
                      <div className="mt-1 max-w-48 text-xs whitespace-normal text-muted">{status.help}</div>
                    </Td>
                    <Td className="tabular-nums">{formatMs(e.latency_ms)}</Td>
                    <Td className="tabular-nums">{e.tokens_per_second === null ? '—' : `${e.tokens_per_second} tok/s`}</Td>
                    <Td className="tabular-nums">{formatPrice(perMillion(e.pricing.prompt))}</Td>
                    <Td className="tabular-nums">{formatPrice(perMillion(e.pricing.completion))}</Td>
                    <Td className="tabular-nums">{formatCompact(e.context_length)}</Td>
                    <Td className="tabular-nums">{e.max_completion_tokens ? formatCompact(e.max_completion_tokens) : '—'}</Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
        )}
      </Section>
    </div>
  );
}
