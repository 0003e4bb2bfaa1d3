'use client';

import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { SelectField } from '@/components/console/fields';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { DEFAULT_FILTERS, RANGES, STATUSES, type UsageFilters } from './usage-filters';
import type { useNameMaps } from './use-name-maps';

/** `withStatus`: a status filter too (the activity log). */
export function FilterBar({ filters, onChange, names, withStatus = false }: { filters: UsageFilters; onChange: (f: UsageFilters) => void; names: ReturnType<typeof useNameMaps>; withStatus?: boolean }) {
  const trpc = useTRPC();
  const { can } = useConsoleSession();
  const models = useQuery(trpc.models.list.queryOptions());
  const set = (patch: Partial<UsageFilters>) => onChange({ ...filters, ...patch });
  const active = filters.model || filters.apiKeyId || filters.userId || filters.status;
  return (
    <form
      role="search"
      aria-label={withStatus ? 'Filter activity' : 'Filter usage'}
      onSubmit={(e) => e.preventDefault()}
      className={`grid gap-3 rounded-2xl border border-border bg-surface-raised p-4 shadow-xs sm:grid-cols-2 lg:items-end ${withStatus ? 'lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]' : 'lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]'}`}
    >
      <SelectField id="filter-range" label="Time range" value={filters.range} onChange={(e) => set({ range: e.target.value as UsageFilters['range'] })}>
        {RANGES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </SelectField>
      <SelectField id="filter-model" label="Model" value={filters.model} onChange={(e) => set({ model: e.target.value })}>
        <option value="">All models</option>
        {(models.data ?? []).map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
          </option>
        ))}
      </SelectField>
      <SelectField id="filter-key" label="API key" value={filters.apiKeyId} onChange={(e) => set({ apiKeyId: e.target.value })} disabled={!can('keys:create')}>
        <option value="">All keys</option>
        {names.keys.map((k) => (
          <option key={k.id} value={k.id}>
            {k.name} ({k.hint})
          </option>
        ))}
      </SelectField>
      {names.memberNames ? (
        <SelectField id="filter-member" label="Member" value={filters.userId} onChange={(e) => set({ userId: e.target.value })}>
          <option value="">All members</option>
          {names.members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name || m.email}
            </option>
          ))}
        </SelectField>
      ) : (
        <div className="hidden lg:block" />
      )}
      {withStatus ? (
        <SelectField id="filter-status" label="Status" value={filters.status ?? ''} onChange={(e) => set({ status: e.target.value as UsageFilters['status'] })}>
          <option value="">Every status</option>
          {STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </SelectField>
      ) : null}
      <Button variant="ghost" onClick={() => onChange({ ...DEFAULT_FILTERS, range: filters.range })} disabled={!active}>
        Clear
      </Button>
    </form>
  );
}
