'use client';

// Each member's spend limit and what they spent in its current window; owners and admins set or remove one.
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage, readError } from '@/components/console/errors';
import { Dialog } from '@/components/console/dialog';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { LimitFields, parseAmount, resetOf, type Reset } from './limit-fields';

type Member = RouterOutputs['organization']['members'][number];
type Limit = RouterOutputs['organization']['memberLimit'];

const RESET_LABEL = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;

export function MemberLimitsSection() {
  const trpc = useTRPC();
  const { can, session, account } = useConsoleSession();
  const seesAll = can('usage:read-all');
  const members = useQuery(trpc.organization.members.queryOptions());
  const shown = (members.data ?? []).filter((m) => seesAll || m.id === session.user.id);
  const limits = useQueries({ queries: shown.map((m) => trpc.organization.memberLimit.queryOptions({ member_id: m.id })) });
  const [editing, setEditing] = useState<{ member: Member; limit: Limit | undefined } | null>(null);
  const manage = can('members:manage');
  const manageOwners = can('members:manage-owners');

  return (
    <Section id="member-limits" title="Member limits" description={seesAll ? 'What each member’s keys may spend for the organization.' : 'What your keys may spend for the organization.'}>
      {members.isPending ? (
        <LoadingBlock label="Loading members" />
      ) : members.isError ? (
        <ErrorState message={errorMessage(members.error)} onRetry={() => members.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No members">Invite people on the Organization page.</EmptyState>
      ) : (
        <Table label="Members and their limits">
          <thead>
            <tr>
              <Th>Member</Th>
              <Th>Limit</Th>
              <Th>Spent this window</Th>
              {manage ? <ActionsTh>Actions</ActionsTh> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((m, i) => {
              const limit = limits[i];
              const canEdit = manage && (m.role !== 'owner' || manageOwners);
              return (
                <tr key={m.id}>
                  <Td>
                    <div className="font-medium">{m.name || m.email}</div>
                    <div className="text-xs text-muted">
                      {m.email} · <span className="capitalize">{m.role}</span>
                    </div>
                  </Td>
                  <Td>
                    {limit?.isPending ? (
                      <span className="text-muted">Loading…</span>
                    ) : limit?.isError ? (
                      <span className="text-red-700 dark:text-red-300">{errorMessage(limit.error)}</span>
                    ) : limit?.data?.amount_usd === null || limit?.data === undefined ? (
                      <StatusBadge>No limit</StatusBadge>
                    ) : (
                      <span className="tabular-nums">
                        {formatUsd(limit.data.amount_usd)} {limit.data.reset ? RESET_LABEL[limit.data.reset] : 'in total'}
                      </span>
                    )}
                  </Td>
                  <Td className="tabular-nums">{limit?.data ? formatUsd(limit.data.usage_usd) : '—'}</Td>
                  {manage ? (
                    <ActionsTd>
                      {canEdit ? (
                        <Button size="sm" variant="secondary" onClick={() => setEditing({ member: m, limit: limit?.data })} aria-label={`Set limit for ${m.name || m.email}`}>
                          Set limit
                        </Button>
                      ) : (
                        <span className="text-xs text-muted">Owners only</span>
                      )}
                    </ActionsTd>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {editing ? <MemberLimitDialog key={editing.member.id} member={editing.member} limit={editing.limit} organization={account.name} onClose={() => setEditing(null)} /> : null}
    </Section>
  );
}

function MemberLimitDialog({ member, limit, organization, onClose }: { member: Member; limit: Limit | undefined; organization: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [amount, setAmount] = useState(limit?.amount_usd === null || limit === undefined ? '' : String(limit.amount_usd));
  const [reset, setReset] = useState<Reset>(limit?.reset ?? (limit?.amount_usd == null ? 'monthly' : 'never'));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation(
    trpc.organization.setMemberLimit.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.organization.memberLimit.queryKey({ member_id: member.id }) }),
    }),
  );
  const failure = save.error ? readError(save.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseAmount(amount);
    if ('error' in parsed) return setErrors({ amount: parsed.error });
    setErrors({});
    try {
      await save.mutateAsync({ member_id: member.id, amount_usd: parsed.value, reset: parsed.value === null ? null : resetOf(reset) });
      toast(parsed.value === null ? 'Limit removed' : 'Limit saved');
      onClose();
    } catch (err) {
      const e = readError(err);
      setErrors({ amount: e.fields.amount_usd ?? '', reset: e.fields.reset ?? '' });
    }
  }

  return (
    <Dialog open onClose={onClose} title={`Spend limit for ${member.name || member.email}`} description={`What their keys may spend for ${organization}. The spend of the current window is kept.`}>
      <form onSubmit={submit} noValidate className="space-y-5">
        <LimitFields idPrefix="member-limit" amountLabel="Limit" amount={amount} reset={reset} onAmount={setAmount} onReset={setReset} errors={errors} />
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end gap-3 border-t border-border pt-5">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save limit'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
