'use client';

// Operators: one user — status (suspend / restore with a reason), and every account they can spend from with
// its balance and latest credit movements; each account can be credited or debited with a reason.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { errorMessage } from '@/components/console/errors';
import { formatDate, formatDateTime, formatUsd } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { Stat } from '@/components/console/stat';
import { StatusBadge } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { Table, Td, Th } from '@/components/console/table';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { AdjustCreditDialog } from './adjust-credit-dialog';
import { SuspendDialog } from './suspend-dialog';
import { UserStatusBadge } from './user-status-badge';

type Account = RouterOutputs['admin']['user']['data']['accounts'][number];

export function AdminUserPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const user = useQuery(trpc.admin.user.queryOptions({ id }));
  const [adjusting, setAdjusting] = useState<Account | null>(null);
  const [suspending, setSuspending] = useState(false);

  if (user.isPending) return <LoadingBlock label="Loading user" rows={6} />;
  if (user.isError) return <ErrorState message={errorMessage(user.error)} onRetry={() => user.refetch()} />;
  const u = user.data.data;

  return (
    <div className="space-y-8">
      <div className="text-sm">
        <Link href="/admin/users" className="text-muted hover:text-foreground">
          ← Users & accounts
        </Link>
      </div>
      <PageHeader
        title={u.email}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            {u.name || 'No name'} · joined {formatDate(u.created_at)} <UserStatusBadge user={u} />
          </span>
        }
        actions={
          <Button variant="secondary" onClick={() => setSuspending(true)}>
            {u.suspended_at ? 'Restore user' : 'Suspend user'}
          </Button>
        }
      />
      {u.suspended_at ? (
        <p role="status" className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/50 dark:text-red-100">
          Suspended {formatDateTime(u.suspended_at)}: {u.suspended_reason}
        </p>
      ) : null}

      {u.accounts.map((a) => (
        <Section
          key={a.id}
          id={`account-${a.id}`}
          title={a.kind === 'personal' ? 'Personal account' : `${a.name} (organization, ${a.role})`}
          description={<span className="font-mono text-xs">{a.id}</span>}
          actions={
            <Button size="sm" onClick={() => setAdjusting(a)}>
              Adjust credit
            </Button>
          }
        >
          <dl className="grid gap-4 sm:grid-cols-3">
            <Stat label="Balance" value={formatUsd(a.balance.balance)} detail={`${formatUsd(a.balance.available)} available`} />
            <Stat label="Paid credit" value={formatUsd(a.balance.paid)} />
            <Stat label="Promotional credit" value={formatUsd(a.balance.promotional)} detail={a.balance.reserved ? `${formatUsd(a.balance.reserved)} held by the gateway for requests in flight` : undefined} />
          </dl>
          <h3 className="mt-6 mb-2 text-sm font-semibold text-foreground">Latest credit movements</h3>
          {a.recent_entries.length === 0 ? (
            <p className="text-sm text-muted">No payments, adjustments, refunds or promotions yet.</p>
          ) : (
            <Table label={`Ledger entries of ${a.kind === 'personal' ? 'the personal account' : a.name}`}>
              <thead>
                <tr>
                  <Th>When</Th>
                  <Th>Kind</Th>
                  <Th className="text-right">Amount</Th>
                  <Th className="text-right">Balance after</Th>
                  <Th>Note</Th>
                </tr>
              </thead>
              <tbody>
                {a.recent_entries.map((e) => (
                  <tr key={e.id}>
                    <Td className="text-muted">{formatDateTime(e.created_at)}</Td>
                    <Td>
                      <StatusBadge tone={e.kind === 'adjustment' ? 'accent' : 'neutral'}>{e.kind.replace(/_/g, ' ')}</StatusBadge>
                    </Td>
                    <Td className="text-right tabular-nums">{formatUsd(e.amount)}</Td>
                    <Td className="text-right tabular-nums">{formatUsd(e.balance_after)}</Td>
                    <Td className="max-w-xs truncate text-muted">{e.note ?? '—'}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Section>
      ))}

      <AdjustCreditDialog account={adjusting ? { id: adjusting.id, name: adjusting.kind === 'personal' ? `${u.email} (personal)` : adjusting.name } : null} onClose={() => setAdjusting(null)} />
      <SuspendDialog user={u} open={suspending} onClose={() => setSuspending(false)} />
    </div>
  );
}
