'use client';

// Members with their roles (changeable by owners and admins, optimistically), spend this month (for roles
// that see everyone's usage), removal, and leaving.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatDate, formatUsd } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { useSwitchAccount } from '@/components/console/use-switch-account';
import { Button } from '@/components/ui/button';

type Member = RouterOutputs['organization']['members'][number];
type RoleName = Member['role'];

/** The role as a person is called in a sentence: "… is now a billing manager", not "a billing". */
const ROLE_NOUN: Record<string, string> = { owner: 'an owner', admin: 'an admin', billing: 'a billing manager', member: 'a member' };

const monthStart = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
};

export function MembersSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const router = useRouter();
  const { session, account, can } = useConsoleSession();
  const members = useQuery(trpc.organization.members.queryOptions());
  const roles = useQuery(trpc.organization.roles.queryOptions());
  const [from] = useState(monthStart);
  const spend = useQuery({ ...trpc.usage.byMember.queryOptions({ from }), enabled: can('usage:read-all') });
  const [removing, setRemoving] = useState<Member | null>(null);
  const switchAccount = useSwitchAccount();
  const key = trpc.organization.members.queryKey();
  const manage = can('members:manage');
  const assignable = new Set((roles.data ?? []).filter((r) => r.assignable).map((r) => r.role));
  const spendBy = new Map((spend.data ?? []).map((s) => [s.user_id, s]));

  const changeRole = useMutation(
    trpc.organization.changeRole.mutationOptions({
      onMutate: async ({ member_id, role }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData(key);
        queryClient.setQueryData(key, (old) => old?.map((m) => (m.id === member_id ? { ...m, role } : m)));
        return { previous };
      },
      onError: (err, _v, ctx) => {
        if (ctx?.previous) queryClient.setQueryData(key, ctx.previous);
        toast(errorMessage(err), 'error');
      },
      onSuccess: (m) => toast(`${m.name || m.email} is now ${ROLE_NOUN[m.role] ?? m.role}`),
      onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
    }),
  );
  const remove = useMutation(trpc.organization.removeMembers.mutationOptions());

  async function confirmRemove() {
    if (!removing) return;
    const leaving = removing.id === session.user.id;
    try {
      await remove.mutateAsync({ member_ids: [removing.id] });
      setRemoving(null);
      if (leaving) {
        toast(`You left ${account.name}`);
        const personal = session.accounts.find((a) => a.kind === 'personal')!;
        await switchAccount.mutateAsync(personal.id);
        router.push('/overview');
      } else {
        toast(`${removing.name || removing.email} was removed; their keys here were revoked`);
        void queryClient.invalidateQueries({ queryKey: key });
        void queryClient.invalidateQueries({ queryKey: trpc.plans.current.queryKey() });
      }
    } catch {
      // Shown in the dialog.
    }
  }

  return (
    <Section id="members" title="Members" description={members.data ? `${members.data.length} member${members.data.length === 1 ? '' : 's'}` : undefined}>
      {members.isPending ? (
        <LoadingBlock label="Loading members" />
      ) : members.isError ? (
        <ErrorState message={errorMessage(members.error)} onRetry={() => members.refetch()} />
      ) : (
        <Table label="Members">
          <thead>
            <tr>
              <Th>Member</Th>
              <Th>Role</Th>
              <Th>Joined</Th>
              {can('usage:read-all') ? <Th className="text-right">Spend this month</Th> : null}
              <ActionsTh />
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const self = m.id === session.user.id;
              const editable = manage && !self && assignable.has(m.role);
              const s = spendBy.get(m.id);
              return (
                <tr key={m.id}>
                  <Td>
                    <p className="font-medium">
                      {m.name || m.email} {self ? <span className="text-xs font-normal text-muted">(you)</span> : null}
                    </p>
                    {m.name ? <p className="text-xs text-muted">{m.email}</p> : null}
                  </Td>
                  <Td>
                    {editable ? (
                      <select
                        aria-label={`Role of ${m.name || m.email}`}
                        value={m.role}
                        onChange={(e) => changeRole.mutate({ member_id: m.id, role: e.target.value as RoleName })}
                        className="h-8 rounded-md border border-border-strong bg-background px-2 text-sm capitalize"
                      >
                        {(roles.data ?? []).filter((r) => r.assignable || r.role === m.role).map((r) => (
                          <option key={r.role} value={r.role} disabled={!r.assignable}>
                            {r.role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <StatusBadge tone={m.role === 'owner' ? 'accent' : 'neutral'} className="capitalize">
                        {m.role}
                      </StatusBadge>
                    )}
                  </Td>
                  <Td className="whitespace-nowrap text-muted">{formatDate(m.joined_at)}</Td>
                  {can('usage:read-all') ? (
                    <Td className="text-right tabular-nums">
                      {s ? formatUsd(s.spend) : spend.isPending ? '…' : formatUsd(0)}
                      {s ? <span className="block text-xs text-muted">{s.requests} requests</span> : null}
                    </Td>
                  ) : null}
                  <ActionsTd>
                    {self ? (
                      <Button variant="ghost" size="sm" onClick={() => setRemoving(m)}>
                        Leave
                      </Button>
                    ) : manage && (m.role !== 'owner' || can('members:manage-owners')) ? (
                      <Button variant="ghost" size="sm" onClick={() => setRemoving(m)} aria-label={`Remove ${m.name || m.email}`}>
                        Remove
                      </Button>
                    ) : null}
                  </ActionsTd>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {roles.data && manage ? (
        <details className="mt-5 text-sm">
          <summary className="cursor-pointer font-medium text-foreground">What each role may do</summary>
          <ul className="mt-2 space-y-1 text-muted">
            {roles.data.map((r) => (
              <li key={r.role}>
                <span className="font-medium text-foreground capitalize">{r.role}</span>: {r.description}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        title={removing?.id === session.user.id ? `Leave ${account.name}?` : 'Remove this member?'}
        confirmLabel={removing?.id === session.user.id ? 'Leave organization' : 'Remove member'}
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={confirmRemove}
      >
        <p>
          {removing?.id === session.user.id
            ? 'You lose access to its balance, keys and usage. Your API keys on this organization are revoked.'
            : `${removing?.name || removing?.email} loses access at once, and their API keys on this organization are revoked.`}
        </p>
      </ConfirmDialog>
    </Section>
  );
}
