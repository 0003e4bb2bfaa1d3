'use client';

// Where the user is signed in to the console ("This device" first), with a way to sign any other browser out
// — one at a time (optimistic: the row goes at once, and comes back if the server refuses) or all at once.
// A signed-out browser is sent to the sign-in page on its next request. Editors and CLIs are on /sessions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage, readError } from '@/components/console/errors';
import { formatDate, formatRelative } from '@/components/console/format';
import { useOptimisticRemoval } from '@/components/console/optimistic-removal';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type BrowserSession = RouterOutputs['profile']['browserSessions'][number];

export function BrowserSessionsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const key = trpc.profile.browserSessions.queryKey();
  const sessions = useQuery(trpc.profile.browserSessions.queryOptions());
  const revoke = useMutation(trpc.profile.revokeBrowserSession.mutationOptions(useOptimisticRemoval<BrowserSession>(key, 'Session signed out')));
  const [confirmingAll, setConfirmingAll] = useState(false);
  const revokeOthers = useMutation(
    trpc.profile.revokeOtherBrowserSessions.mutationOptions({
      onSuccess: ({ revoked }) => {
        setConfirmingAll(false);
        toast(revoked === 1 ? '1 other session signed out' : `${revoked} other sessions signed out`);
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
    }),
  );
  const others = sessions.data?.filter((s) => !s.current) ?? [];

  return (
    <Section
      id="sessions"
      title="Sessions"
      description="Browsers signed in to the console as you. Changing your password or turning two-factor authentication on or off signs out all but this one."
      actions={
        others.length > 0 ? (
          <Button variant="secondary" size="sm" onClick={() => setConfirmingAll(true)}>
            Sign out all other sessions
          </Button>
        ) : null
      }
    >
      {sessions.isPending ? (
        <LoadingBlock label="Loading sessions" />
      ) : sessions.isError ? (
        <ErrorState message={errorMessage(sessions.error)} onRetry={() => sessions.refetch()} />
      ) : (
        <ul aria-label="Browser sessions" className="divide-y divide-border text-sm">
          {sessions.data.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">{s.device}</span>
                  {s.current ? <StatusBadge tone="success">This device</StatusBadge> : null}
                </p>
                <p className="mt-0.5 text-muted">
                  {s.ip ?? 'Address unknown'} · {s.current ? 'Active now' : `Last active ${formatRelative(s.last_seen_at)}`} · Signed in {formatDate(s.created_at)}
                </p>
              </div>
              {s.current ? null : (
                <Button variant="secondary" size="sm" disabled={revoke.isPending} onClick={() => revoke.mutate({ id: s.id })} aria-label={`Sign out ${s.device}${s.ip ? ` (${s.ip})` : ''}`}>
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="mt-4 text-sm">
        <Link href="/sessions" className="font-medium text-accent-text underline underline-offset-4">
          Manage editor and CLI sessions
        </Link>
      </p>
      <ConfirmDialog
        open={confirmingAll}
        onClose={() => setConfirmingAll(false)}
        title="Sign out all other sessions?"
        confirmLabel="Sign out others"
        pendingLabel="Signing out…"
        pending={revokeOthers.isPending}
        error={revokeOthers.error ? readError(revokeOthers.error).message : null}
        onConfirm={() => revokeOthers.mutate()}
      >
        <p>
          {others.length === 1 ? 'The other browser' : `The ${others.length} other browsers`} signed in as you {others.length === 1 ? 'is' : 'are'} signed out at once. This browser stays
          signed in. Editors and CLIs are not affected.
        </p>
      </ConfirmDialog>
    </Section>
  );
}
