'use client';

// The model catalog: prices per million tokens, context length and capabilities, searchable. Models that
// cannot be used by the active account on this server (provider not configured, disabled, outside the
// organization's policy) say so and why, and are not offered in the playground.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '@/components/console/copy-field';
import { errorMessage } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatCompact, formatPrice, perMillion } from '@/components/console/format';
import { PageHeader } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { ButtonLink } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';

type Model = RouterOutputs['models']['forAccount']['data'][number];
type Capability = 'reasoning' | 'images' | 'tools';

const CAPABILITIES: { id: Capability; label: string; has: (m: Model) => boolean }[] = [
  { id: 'reasoning', label: 'Reasoning', has: (m) => m.supportsReasoning },
  { id: 'images', label: 'Image input', has: (m) => m.supportsImages },
  { id: 'tools', label: 'Tools', has: (m) => m.supported_parameters.includes('tools') },
];

const price = (perToken: string) => formatPrice(perMillion(perToken));

export function ModelsPage() {
  const trpc = useTRPC();
  const models = useQuery(trpc.models.forAccount.queryOptions());
  const [search, setSearch] = useState('');
  const [required, setRequired] = useState<Capability[]>([]);
  const q = search.trim().toLowerCase();
  const all = models.data?.data ?? [];
  const unusable = all.filter((m) => !m.usability.usable).length;
  const shown = all.filter(
    (m) => (!q || m.id.toLowerCase().includes(q) || m.name.toLowerCase().includes(q) || m.provider.includes(q)) && required.every((c) => CAPABILITIES.find((x) => x.id === c)!.has(m)),
  );

  return (
    <div className="space-y-8">
      <PageHeader
        title="Models"
        description={`Every model this server routes to, at the providers' list prices. Address a model by its id, e.g. in the model field of a chat request.${unusable ? ` ${unusable} cannot be used by this account here; each says why.` : ''}`}
      />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <TextField id="model-search" label="Search models" labelHidden type="search" placeholder="Search by name, id or provider" value={search} onChange={(e) => setSearch(e.target.value)} className="sm:w-80" />
        <div role="group" aria-label="Required capabilities" className="flex flex-wrap gap-2">
          {CAPABILITIES.map((c) => {
            const on = required.includes(c.id);
            return (
              <button
                key={c.id}
                type="button"
                aria-pressed={on}
                onClick={() => setRequired((list) => (on ? list.filter((x) => x !== c.id) : [...list, c.id]))}
                className={cx('h-10 rounded-lg border px-3 text-sm font-medium', on ? 'border-accent-soft-border bg-accent-soft text-accent-text' : 'border-border-strong bg-surface-raised text-muted hover:text-foreground')}
              >
                {c.label}
              </button>
            );
          })}
        </div>
      </div>

      {models.isPending ? (
        <LoadingBlock label="Loading models" rows={6} />
      ) : models.isError ? (
        <ErrorState message={errorMessage(models.error)} onRetry={() => models.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No models match">Clear the search or a capability filter.</EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {shown.map((m) => (
            <li key={m.id} data-usable={m.usability.usable} aria-label={m.usability.usable ? m.name : `${m.name} (unavailable)`} className={cx('flex flex-col rounded-2xl border bg-surface-raised p-5 shadow-xs', m.usability.usable ? 'border-border' : 'border-dashed border-border-strong')}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="font-semibold text-foreground">{m.name}</h2>
                  <p className="mt-0.5 truncate font-mono text-xs text-muted">{m.id}</p>
                </div>
                <CopyButton text={m.id} label={`Copy model id ${m.id}`} />
              </div>
              {m.usability.usable ? null : (
                <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-foreground">
                  <StatusBadge tone="warning">Unavailable here</StatusBadge>
                  <span>{m.usability.message}</span>
                </p>
              )}
              <p className="mt-3 text-sm leading-6 text-muted">{m.description}</p>
              <div className="mt-3 flex flex-wrap gap-1.5">
                {CAPABILITIES.filter((c) => c.has(m)).map((c) => (
                  <StatusBadge key={c.id} tone="accent">
                    {c.label}
                  </StatusBadge>
                ))}
                <StatusBadge>{formatCompact(m.context_length)} context</StatusBadge>
                {m.top_provider.max_completion_tokens ? <StatusBadge>{formatCompact(m.top_provider.max_completion_tokens)} max output</StatusBadge> : null}
              </div>
              <dl className="mt-4 grid grid-cols-3 gap-3 border-t border-border pt-4 text-sm">
                <div>
                  <dt className="text-xs text-muted">Input / 1M</dt>
                  <dd className="font-medium tabular-nums">{price(m.pricing.prompt)}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted">Output / 1M</dt>
                  <dd className="font-medium tabular-nums">{price(m.pricing.completion)}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted">Cached input / 1M</dt>
                  <dd className="font-medium tabular-nums">{Number(m.pricing.input_cache_read) > 0 ? price(m.pricing.input_cache_read) : '—'}</dd>
                </div>
              </dl>
              <div className="mt-4 flex flex-wrap justify-end gap-2">
                <ButtonLink href={`/models/${m.id}`} variant="ghost" size="sm" aria-label={`Providers and health of ${m.id}`}>
                  Providers &amp; health
                </ButtonLink>
                {m.usability.usable && m.kind === 'chat' ? (
                  <ButtonLink href={`/playground?model=${encodeURIComponent(m.id)}`} variant="ghost" size="sm">
                    Try in playground<span className="sr-only"> with {m.id}</span> →
                  </ButtonLink>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
