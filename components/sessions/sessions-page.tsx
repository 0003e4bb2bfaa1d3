'use client';

// The account auth tokens of this user's editors and CLIs (device and editor sign-in flows). Revoking one
// is immediate: the next request with it is refused. Revoking is optimistic.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage } from '@/components/console/errors';
import { formatDate, formatRelative } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { useOptimisticRemoval } from '@/components/console/optimistic-removal';
import { PageHeader, Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Token = RouterOutputs['sessions']['list'][number];

const KIND_LABEL: Record<string, string> = { cli: 'CLI', editor: 'Editor', other: 'App' };

export function SessionsPage() {
  const trpc = useTRPC();
  const tokens = useQuery(trpc.sessions.list.queryOptions());
  const [confirming, setConfirming] = useState<Token | null>(null);
  const key = trpc.sessions.list.queryKey();
  const revoke = useMutation(trpc.sessions.revoke.mutationOptions(useOptimisticRemoval<Token>(key, 'Session revoked')));

  return (
    <div className="space-y-8">
      <PageHeader title="Sessions" description="Editors and command-line tools signed in to your Switchboard account. They act as you, on your active account." />
      <Section title="Signed-in editors and CLIs">
        {tokens.isPending ? (
          <LoadingBlock label="Loading sessions" />
        ) : tokens.isError ? (
          <ErrorState message={errorMessage(tokens.error)} onRetry={() => tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <EmptyState icon={<Icon name="sessions" />} title="No editors or CLIs are signed in">
            When you approve a device code (<code className="font-mono text-xs">/device</code>) or an editor&apos;s sign-in, it appears here and can be revoked.
          </EmptyState>
        ) : (
          <Table label="Sessions">
            <thead>
              <tr>
                <Th>Device</Th>
                <Th>Token</Th>
                <Th>Signed in</Th>
                <Th>Last used</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t.id}>
                  <Td>
                    <span className="font-medium">{t.device_name}</span> <StatusBadge className="ml-1">{KIND_LABEL[t.client_kind] ?? t.client_kind}</StatusBadge>
                  </Td>
                  <Td>
                    <code className="rounded bg-surface px-1.5 py-0.5 font-mono text-xs">{t.hint}</code>
                  </Td>
                  <Td className="whitespace-nowrap text-muted">{formatDate(t.created_at)}</Td>
                  <Td className="whitespace-nowrap text-muted">{formatRelative(t.last_used_at)}</Td>
                  <ActionsTd>
                    <Button variant="secondary" size="sm" onClick={() => setConfirming(t)} aria-label={`Revoke ${t.device_name}`}>
                      Revoke
                    </Button>
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      <ConfirmDialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title="Revoke this session?"
        confirmLabel="Revoke"
        onConfirm={() => {
          if (confirming) revoke.mutate({ id: confirming.id });
          setConfirming(null);
        }}
      >
        <p>
          <span className="font-medium text-foreground">{confirming?.device_name}</span> is signed out at once; it will need to sign in again.
        </p>
      </ConfirmDialog>
    </div>
  );
}
