'use client';

// Invites: send to several emails at once with a role, copy each link (shown once: only a hash is kept),
// see and revoke pending invites. Seat-aware: when the plan's seats are taken (members and pending invites)
// the form says so before anything is sent, and offers the plan change.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { CopyField } from '@/components/console/copy-field';
import { errorMessage, readError } from '@/components/console/errors';
import { SelectField, TextareaField } from '@/components/console/fields';
import { formatRelative } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { useOptimisticRemoval } from '@/components/console/optimistic-removal';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button, ButtonLink } from '@/components/ui/button';
import { seatAvailability, seatShortfall } from './seat-availability';

type InviteResults = RouterOutputs['invites']['create'];
type RoleName = RouterOutputs['organization']['members'][number]['role'];

export const splitEmails = (text: string) => [...new Set(text.split(/[\s,;]+/).map((e) => e.trim()).filter(Boolean))];

/** "emails.1: Enter a valid email address" → which address it was. */
function issueText(fields: Record<string, string>, emails: string[]): string | undefined {
  const entry = Object.entries(fields).find(([k]) => k === 'emails' || k.startsWith('emails.'));
  if (!entry) return undefined;
  const index = Number(entry[0].split('.')[1]);
  return Number.isInteger(index) && emails[index] ? `${emails[index]}: ${entry[1]}` : entry[1];
}

export function InvitesSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { can } = useConsoleSession();
  const invites = useQuery(trpc.invites.list.queryOptions());
  const plan = useQuery(trpc.plans.current.queryOptions());
  const p = plan.data;
  const seats = p
    ? seatAvailability({ limit: p.subscription && p.plan.seat_limited ? p.subscription.seats : p.plan.max_members, members: p.member_count, pending: invites.data?.length ?? 0 })
    : null;
  const roles = useQuery(trpc.organization.roles.queryOptions());
  const [text, setText] = useState('');
  const [role, setRole] = useState<RoleName>('member');
  const [error, setError] = useState<string | undefined>();
  const [results, setResults] = useState<InviteResults | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.invites.pathKey() });
  };
  const send = useMutation(trpc.invites.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(
    trpc.invites.revoke.mutationOptions(useOptimisticRemoval<{ id: string }>(trpc.invites.list.queryKey(), 'Invite revoked; its link no longer works', trpc.invites.pathKey())),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    const emails = splitEmails(text);
    if (emails.length === 0) return setError('Enter at least one email address');
    if (emails.length > 50) return setError('At most 50 emails at a time');
    // Re-inviting a pending address replaces its invite and takes no new seat.
    const fresh = emails.filter((e) => !invites.data?.some((i) => i.email.toLowerCase() === e.toLowerCase())).length;
    const shortfall = seats ? seatShortfall(seats, fresh) : null;
    if (shortfall) return setError(shortfall);
    setError(undefined);
    try {
      const r = await send.mutateAsync({ emails, role });
      setResults(r);
      setText('');
      toast(`${r.invited} invite${r.invited === 1 ? '' : 's'} created`);
    } catch (err) {
      const e = readError(err);
      setError(issueText(e.fields, emails) ?? e.message);
    }
  }

  const pending = invites.data?.length ?? 0;
  return (
    <Section
      id="invites"
      title="Invites"
      description="Invite people by email. Each link is shown once here; send it yourself if mail is not set up."
      actions={invites.data ? <StatusBadge tone={pending ? 'warning' : 'neutral'}>{pending} pending</StatusBadge> : undefined}
    >
      {can('invites:manage') && seats && seats.free === 0 ? (
        <Notice
          tone="warning"
          className="mb-4"
          title={seats.full ? `All ${seats.limit} seats are in use` : `Pending invites hold the last seat${seats.limit === 1 ? '' : 's'}`}
          action={
            can('plan:manage') ? (
              <ButtonLink href="/plans" variant="secondary" size="sm">
                {p?.subscription ? 'Add seats' : 'Change plan'}
              </ButtonLink>
            ) : undefined
          }
        >
          {seats.full ? 'A new invite could not be accepted until a seat is free. ' : 'Another invite could not be accepted before one of them is revoked. '}
          {can('plan:manage') ? `Add seats or move to a larger plan to invite more people.` : 'Ask an owner or billing manager to add seats.'}
        </Notice>
      ) : null}
      {can('invites:manage') ? (
        <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-[minmax(0,1fr)_12rem_auto] md:items-start">
          <TextareaField id="invite-emails" label="Email addresses" rows={2} value={text} onChange={(e) => setText(e.target.value)} placeholder="ada@example.com, grace@example.com" hint="Separate addresses with commas, spaces or new lines." error={error} />
          <SelectField id="invite-role" label="Role" value={role} onChange={(e) => setRole(e.target.value as RoleName)}>
            {(roles.data ?? [{ role: 'member', assignable: true }]).filter((r) => r.assignable).map((r) => (
              <option key={r.role} value={r.role} className="capitalize">
                {r.role.charAt(0).toUpperCase() + r.role.slice(1)}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={send.isPending} className="md:mt-7">
            {send.isPending ? 'Sending…' : 'Send invites'}
          </Button>
        </form>
      ) : null}

      {results ? (
        <div className="mt-5 space-y-3" data-testid="invite-results">
          {!results.mail_configured ? <Notice tone="info">Email is not configured on this server: copy each link and send it yourself.</Notice> : null}
          {results.data.map((r) =>
            r.status === 'invited' ? (
              <div key={r.email}>
                <p className="mb-1 text-sm">
                  <span className="font-medium text-foreground">{r.email}</span> <span className="text-muted">{r.emailed ? '· emailed' : r.email_error ? `· email failed: ${r.email_error}` : ''}</span>
                </p>
                <CopyField value={r.link} label={`invite link for ${r.email}`} />
              </div>
            ) : (
              <p key={r.email} className="text-sm text-muted">
                <span className="font-medium text-foreground">{r.email}</span> is already a member.
              </p>
            ),
          )}
        </div>
      ) : null}

      <div className="mt-6">
        <h3 className="mb-3 text-sm font-semibold text-foreground">Pending invites</h3>
        {invites.isPending ? (
          <LoadingBlock label="Loading invites" rows={2} />
        ) : invites.isError ? (
          <ErrorState message={errorMessage(invites.error)} onRetry={() => invites.refetch()} />
        ) : invites.data.length === 0 ? (
          <EmptyState title="No pending invites" className="py-6" />
        ) : (
          <Table label="Pending invites">
            <thead>
              <tr>
                <Th>Email</Th>
                <Th>Role</Th>
                <Th>Invited by</Th>
                <Th>Expires</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {invites.data.map((i) => (
                <tr key={i.id}>
                  <Td className="font-medium">{i.email}</Td>
                  <Td className="capitalize">{i.role}</Td>
                  <Td className="text-muted">{i.invited_by?.name || i.invited_by?.email || '—'}</Td>
                  <Td className="whitespace-nowrap text-muted">{formatRelative(i.expires_at)}</Td>
                  <ActionsTd>
                    {can('invites:manage') ? (
                      <Button variant="ghost" size="sm" onClick={() => revoke.mutate({ id: i.id })} aria-label={`Revoke the invite for ${i.email}`}>
                        Revoke
                      </Button>
                    ) : null}
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
    </Section>
  );
}
