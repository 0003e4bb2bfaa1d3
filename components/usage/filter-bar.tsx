'use client';

import { useQuery } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { SelectField } from '@/components/console/fields';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { DEFAULT_FILTERS, RANGES, type UsageFilters } from './usage-filters';
import type { useNameMaps } from './use-name-maps';

export function FilterBar({ filters, onChange, names }: { filters: UsageFilters; onChange: (f: UsageFilters) => void; names: ReturnType<typeof useNameMaps> }) {
  const trpc = useTRPC();
  const { can } = useConsoleSession();
  const models = useQuery(trpc.models.list.queryOptions());
  const set = (patch: Partial<UsageFilters>) => onChange({ ...filters, ...patch });
  const active = filters.model || filters.apiKeyId || filters.userId;
  return (
    <form role="search" aria-label="Filter usage" onSubmit={(e) => e.preventDefault()} className="grid gap-3 rounded-2xl border border-border bg-surface-raised p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end">
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
      <Button variant="ghost" onClick={() => onChange({ ...DEFAULT_FILTERS, range: filters.range })} disabled={!active}>
        Clear
      </Button>
    </form>
  );
}
