'use client';

// Operators: the audit log of every account (the accounts' own audit service, without the account scope),
// filtered by action, account, actor and date, newest first, a page at a time.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDateTime } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

interface Filters {
  action: string;
  account_id: string;
  actor: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { action: '', account_id: '', actor: '', from: '', to: '' };

function toInput(f: Filters, cursor: string | undefined) {
  return {
    limit: 50,
    cursor,
    ...(f.action ? { action: f.action } : {}),
    ...(f.account_id ? { account_id: f.account_id } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
  };
}

function summary(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

export function AdminAuditLogPage() {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [cursors, setCursors] = useState<string[]>([]);
  const log = useQuery(trpc.admin.auditLog.queryOptions(toInput(filters, cursors[cursors.length - 1])));
  const field = (name: keyof Filters) => ({ value: draft[name], onChange: (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value })) });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setCursors([]);
    setFilters({ ...draft, action: draft.action.trim(), account_id: draft.account_id.trim(), actor: draft.actor.trim() });
  };

  return (
    <div className="space-y-8">
      <PageHeader title="Audit log" description="Every change to every account — keys, members, payments, credit adjustments, suspensions — by REST, console or CLI. Entries are never edited." />
      <form aria-label="Audit log filters" onSubmit={apply} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end">
        <TextField id="audit-action" label="Action" placeholder="user.suspend or api_key." {...field('action')} className="lg:col-span-2" />
        <TextField id="audit-account" label="Account id" {...field('account_id')} />
        <TextField id="audit-actor" label="Actor (user id)" {...field('actor')} />
        <TextField id="audit-from" label="From" type="date" {...field('from')} />
        <TextField id="audit-to" label="Before" type="date" {...field('to')} />
        <div className="flex gap-2 lg:col-span-6">
          <Button type="submit">Apply filters</Button>
          <Button
            variant="secondary"
            onClick={() => {
              setDraft(EMPTY);
              setFilters(EMPTY);
              setCursors([]);
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      <Section title="Entries" description="Newest first.">
        {log.isPending ? (
          <LoadingBlock label="Loading the audit log" />
        ) : log.isError ? (
          <ErrorState message={errorMessage(log.error)} onRetry={() => log.refetch()} />
        ) : log.data.data.length === 0 ? (
          <EmptyState icon={<Icon name="list" />} title="No entries match" />
        ) : (
          <>
            <Table label="Audit log entries">
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Action</Th>
                  <Th>Actor</Th>
                  <Th>Account</Th>
                  <Th>Target</Th>
                  <Th>Change</Th>
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((e) => (
                  <tr key={e.id}>
                    <Td className="text-muted">{formatDateTime(e.created_at)}</Td>
                    <Td>
                      <StatusBadge tone="accent">{e.action}</StatusBadge>
                    </Td>
                    <Td>
                      {e.actor.label}
                      <div className="text-xs text-muted">
                        {e.actor.kind} via {e.actor.via}
                      </div>
                    </Td>
                    <Td className="font-mono text-xs">{e.account_id ?? <span className="font-sans text-muted">instance</span>}</Td>
                    <Td className="text-xs">
                      {e.target.type}
                      {e.target.id ? <div className="font-mono text-muted">{e.target.id}</div> : null}
                    </Td>
                    <Td className="max-w-sm text-xs text-muted">
                      <span className="line-clamp-3 break-all font-mono">{summary(e.after ?? e.before)}</span>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <div className="mt-4 flex justify-end gap-2">
              <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
                Newer
              </Button>
              <Button variant="secondary" size="sm" disabled={!log.data.next_cursor} onClick={() => log.data.next_cursor && setCursors((c) => [...c, log.data.next_cursor as string])}>
                Older
              </Button>
            </div>
          </>
        )}
      </Section>
    </div>
  );
}
