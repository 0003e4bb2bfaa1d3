'use client';

import { useState } from 'react';
import { errorMessage } from '@/components/console/errors';
import { Icon } from '@/components/console/icons';
import { useToast } from '@/components/console/toast';
import { useTRPCClient } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { downloadText, EXPORT_MAX_ROWS, usageCsv } from './export-csv';
import { activityInput, listInput, type UsageFilters } from './usage-filters';
import type { UsageRecord } from './usage-table';
import type { useNameMaps } from './use-name-maps';

/** `activity`: the activity log's export (refused requests included). */
export function ExportButton({ filters, from, names, activity = false }: { filters: UsageFilters; from: string; names: ReturnType<typeof useNameMaps>; activity?: boolean }) {
  const client = useTRPCClient();
  const toast = useToast();
  const [progress, setProgress] = useState<number | null>(null);

  async function exportCsv() {
    setProgress(0);
    try {
      const rows: UsageRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.usage.list.query({ ...(activity ? activityInput(filters, from) : listInput(filters, from)), limit: 200, cursor });
        rows.push(...page.data);
        setProgress(rows.length);
        cursor = page.next_cursor ?? undefined;
      } while (cursor && rows.length < EXPORT_MAX_ROWS);
      downloadText(`switchboard-${activity ? 'activity' : 'usage'}-${new Date().toISOString().slice(0, 10)}.csv`, usageCsv(rows, names.keyNames, names.memberNames));
      toast(`Exported ${rows.length.toLocaleString('en-US')} request${rows.length === 1 ? '' : 's'}${cursor ? ` (the first ${EXPORT_MAX_ROWS.toLocaleString('en-US')})` : ''}`);
    } catch (err) {
      toast(errorMessage(err), 'error');
    } finally {
      setProgress(null);
    }
  }

  return (
    <Button onClick={exportCsv} disabled={progress !== null}>
      <Icon name="download" className="size-4" />
      {progress !== null ? `Exporting… ${progress}` : 'Export CSV'}
    </Button>
  );
}
