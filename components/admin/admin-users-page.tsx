'use client';

// Operators: every user of the instance, searched by email or name, with their personal balance and
// organizations; a row opens the user (accounts, credit adjustments, suspension).
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDate, formatUsd } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { UserStatusBadge } from './user-status-badge';

export function AdminUsersPage() {
  const trpc = useTRPC();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const users = useQuery(trpc.admin.users.queryOptions({ q: q || undefined, cursor, limit: 25 }));

  const search = (e: FormEvent) => {
    e.preventDefault();
    setCursors([]);
    setQ(draft.trim());
  };

  return (
    <div className="space-y-8">
      <PageHeader title="Users & accounts" description="Every user of this instance. Search by email or name, then open a user to adjust credit or suspend them." />
      <Section
        title={q ? `Users matching “${q}”` : 'All users'}
        actions={
          <form role="search" aria-label="Users" onSubmit={search} className="flex items-end gap-2">
            <TextField id="admin-user-search" label="Email or name" labelHidden type="search" placeholder="Email or name" value={draft} onChange={(e) => setDraft(e.target.value)} className="w-64" />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
        }
      >
        {users.isPending ? (
          <LoadingBlock label="Loading users" />
        ) : users.isError ? (
          <ErrorState message={errorMessage(users.error)} onRetry={() => users.refetch()} />
        ) : users.data.data.length === 0 ? (
          <EmptyState icon={<Icon name="user" />} title="No users found">
            {q ? 'No email or name contains that text.' : 'Nobody has signed up yet.'}
          </EmptyState>
        ) : (
          <>
            <Table label="Users">
              <thead>
                <tr>
                  <Th>User</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Personal balance</Th>
                  <Th>Organizations</Th>
                  <Th>Joined</Th>
                </tr>
              </thead>
              <tbody>
                {users.data.data.map((u) => (
                  <tr key={u.id}>
                    <Td>
                      <Link href={`/admin/users/${u.id}`} className="font-medium text-accent-text hover:underline">
                        {u.email}
                      </Link>
                      <div className="text-xs text-muted">{u.name || '—'}</div>
                    </Td>
                    <Td>
                      <UserStatusBadge user={u} />
                    </Td>
                    <Td className="text-right tabular-nums">{formatUsd(u.personal_balance)}</Td>
                    <Td className="text-muted">{u.organizations.length ? u.organizations.map((o) => `${o.name} (${o.role})`).join(', ') : '—'}</Td>
                    <Td className="text-muted">{formatDate(u.created_at)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <div className="mt-4 flex justify-end gap-2">
              <Button variant="secondary" size="sm" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
                Previous
              </Button>
              <Button variant="secondary" size="sm" disabled={!users.data.next_cursor} onClick={() => users.data.next_cursor && setCursors((c) => [...c, users.data.next_cursor as string])}>
                Next
              </Button>
            </div>
          </>
        )}
      </Section>
    </div>
  );
}
