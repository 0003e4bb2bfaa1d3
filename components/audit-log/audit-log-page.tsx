'use client';

// The account's audit log: who changed what, when and from where, newest first, filtered, a page at a time,
// and exported as CSV (the REST export's columns).
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC, useTRPCClient } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { downloadText } from '@/components/usage/export-csv';
import type { AuditEntryDto } from '@/server/audit/list-audit-log';
import { auditLogCsv } from '@/server/http/audit-log-reply';
import { AuditEntryList } from './audit-entry-list';
import { AuditFilterBar, auditQuery, NO_FILTERS, type AuditFilters } from './audit-filters';

const EXPORT_MAX = 10_000;

export function AuditLogPage() {
  const { account, can } = useConsoleSession();
  const allowed = can('audit:read');
  const header = (
    <PageHeader
      title="Audit log"
      description={
        <>
          Changes to <span className="font-medium text-foreground">{account.name}</span>: keys, members, settings, payments, webhooks, provider keys and single
          sign-on, with who made them and from where.
        </>
      }
    />
  );
  if (!allowed) {
    return (
      <div className="space-y-8">
        {header}
        <EmptyState title="Your role cannot read the audit log">Owners and admins of {account.name} can.</EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-8">
      {header}
      <AuditLogView />
    </div>
  );
}

function AuditLogView() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const toast = useToast();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [exporting, setExporting] = useState(false);
  const query = auditQuery(filters);
  const entries = useInfiniteQuery(trpc.auditLog.list.infiniteQueryOptions({ ...query, limit: 50 }, { getNextPageParam: (p) => p.next_cursor ?? undefined }));
  const rows = entries.data?.pages.flatMap((p) => p.data) ?? [];
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  async function exportCsv() {
    setExporting(true);
    try {
      const all: AuditEntryDto[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.auditLog.list.query({ ...query, limit: 200, cursor });
        all.push(...(page.data as AuditEntryDto[]));
        cursor = page.next_cursor ?? undefined;
      } while (cursor && all.length < EXPORT_MAX);
      downloadText(`switchboard-audit-log-${new Date().toISOString().slice(0, 10)}.csv`, auditLogCsv(all));
      toast(`Exported ${all.length.toLocaleString('en-US')} entr${all.length === 1 ? 'y' : 'ies'}`);
    } catch (err) {
      toast(errorMessage(err), 'error');
    } finally {
      setExporting(false);
    }
  }

  return (
    <Section
      title="Entries"
      actions={
        <Button variant="secondary" onClick={exportCsv} disabled={exporting || rows.length === 0}>
          <Icon name="download" className="size-4" /> {exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      }
    >
      <div className="space-y-5">
        <AuditFilterBar value={filters} onChange={setFilters} />
        {entries.isPending ? (
          <LoadingBlock label="Loading the audit log" rows={5} />
        ) : entries.isError ? (
          <ErrorState message={errorMessage(entries.error)} onRetry={() => entries.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            title={filtered ? 'No entries match these filters' : 'Nothing recorded yet'}
            action={filtered ? <Button variant="secondary" onClick={() => setFilters(NO_FILTERS)}>Clear filters</Button> : undefined}
          >
            {filtered ? 'Widen the period or choose another action.' : 'Changes such as creating an API key or inviting a member appear here.'}
          </EmptyState>
        ) : (
          <>
            <AuditEntryList entries={rows as AuditEntryDto[]} />
            {entries.hasNextPage ? (
              <div className="flex justify-center">
                <Button variant="secondary" onClick={() => entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
                  {entries.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </Section>
  );
}
