'use client';

// API keys of the active account: create (shown once), list with hint, last use and spend, delete. Owners
// and admins of an organization see and may delete every member's keys; other members their own.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { CreateKeyDialog } from './create-key-dialog';
import { KeyTable } from './key-table';

export function KeysPage() {
  const trpc = useTRPC();
  const { account, session, can, isOrganization } = useConsoleSession();
  const keys = useQuery(trpc.apiKeys.list.queryOptions());
  const manageAll = isOrganization && can('keys:manage-all');
  const members = useQuery({ ...trpc.organization.members.queryOptions(), enabled: manageAll });
  const [creating, setCreating] = useState(false);
  const [scope, setScope] = useState<'all' | 'mine'>('all');

  const memberNames = useMemo(() => new Map((members.data ?? []).map((m) => [m.id, m.name || m.email])), [members.data]);
  const visible = (keys.data ?? []).filter((k) => scope === 'all' || k.user_id === session.user.id);

  if (!can('keys:create')) {
    return (
      <div className="space-y-8">
        <PageHeader title="API keys" />
        <EmptyState title="Your role cannot create API keys">Ask an owner or admin of {account.name}.</EmptyState>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <PageHeader
        title="API keys"
        description={
          <>
            Keys for <span className="font-medium text-foreground">{account.name}</span>: requests made with them are billed to this account. A key is shown once
            when it is created; we keep only its hash.
          </>
        }
        actions={
          <Button onClick={() => setCreating(true)}>
            <Icon name="plus" className="size-4" /> Create key
          </Button>
        }
      />

      <Section
        title={manageAll ? 'Organization keys' : 'Your keys'}
        description={manageAll ? 'As an owner or admin you see, and may delete, every member’s keys.' : undefined}
        actions={
          manageAll ? (
            <div role="group" aria-label="Show keys" className="inline-flex rounded-lg border border-border p-0.5 text-sm">
              {(['all', 'mine'] as const).map((s) => (
                <button
                  key={s}
                  type="button"
                  aria-pressed={scope === s}
                  onClick={() => setScope(s)}
                  className={cx('rounded-md px-3 py-1 font-medium', scope === s ? 'bg-accent-soft text-accent-text' : 'text-muted hover:text-foreground')}
                >
                  {s === 'all' ? 'All keys' : 'My keys'}
                </button>
              ))}
            </div>
          ) : undefined
        }
      >
        {keys.isPending ? (
          <LoadingBlock label="Loading API keys" />
        ) : keys.isError ? (
          <ErrorState message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />
        ) : visible.length === 0 ? (
          <EmptyState
            icon={<Icon name="key" />}
            title="No API keys yet"
            action={
              <Button onClick={() => setCreating(true)}>
                <Icon name="plus" className="size-4" /> Create your first key
              </Button>
            }
          >
            Create a key, then point any OpenAI SDK at this server&apos;s <code className="font-mono text-xs">/api/v1</code> with it.
          </EmptyState>
        ) : (
          <KeyTable keys={visible} currentUserId={session.user.id} canManageAll={manageAll} memberNames={manageAll ? memberNames : undefined} />
        )}
      </Section>

      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
