'use client';

// The organization's single sign-on (owners): its OpenID Connect issuer and client, the email domains whose
// people sign in through it (each proven by a DNS TXT record), and the role they join with.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { PageHeader } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { SsoDomains } from './sso-domains';
import { SsoForm } from './sso-form';

export function SsoPage() {
  const { account, isOrganization, can } = useConsoleSession();
  const header = (
    <PageHeader
      title="Single sign-on"
      description="People with an email address on your verified domains sign in through your identity provider (OpenID Connect) and join the organization."
    />
  );
  if (!isOrganization || !can('sso:manage')) {
    return (
      <div className="space-y-8">
        {header}
        <EmptyState title={isOrganization ? 'Only owners manage single sign-on' : 'Single sign-on is for organizations'}>
          {isOrganization ? `Ask an owner of ${account.name}.` : 'Switch to an organization you own in the account menu.'}
        </EmptyState>
      </div>
    );
  }
  return <SsoView header={header} />;
}

function SsoView({ header }: { header: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const sso = useQuery(trpc.sso.get.queryOptions());
  const [removing, setRemoving] = useState(false);
  const remove = useMutation(
    trpc.sso.delete.mutationOptions({
      onSuccess: () => {
        toast('Single sign-on removed');
        setRemoving(false);
        return queryClient.invalidateQueries({ queryKey: trpc.sso.get.queryKey() });
      },
    }),
  );
  if (sso.isPending) return <LoadingBlock label="Loading single sign-on" rows={5} />;
  if (sso.isError) return <ErrorState message={errorMessage(sso.error)} onRetry={() => sso.refetch()} />;
  const config = sso.data;
  const verified = config?.domains.filter((d) => d.verified).length ?? 0;
  return (
    <div className="space-y-8">
      {header}
      <div className="flex flex-wrap items-center gap-2" role="status">
        {config === null ? (
          <StatusBadge>Not set up</StatusBadge>
        ) : verified > 0 ? (
          <StatusBadge tone="success">Active on {verified} domain{verified === 1 ? '' : 's'}</StatusBadge>
        ) : (
          <StatusBadge tone="warning">Waiting for domain verification</StatusBadge>
        )}
      </div>
      <SsoForm key={config?.updated_at ?? 'new'} config={config} />
      {config ? <SsoDomains config={config} /> : null}
      {config ? (
        <div className="flex justify-end">
          <Button variant="secondary" onClick={() => setRemoving(true)}>
            Remove single sign-on
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={removing}
        onClose={() => {
          setRemoving(false);
          remove.reset();
        }}
        onConfirm={() => remove.mutate()}
        title="Remove single sign-on?"
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
      >
        <p>People of your domains can no longer sign in through your issuer. Members keep their membership and can sign in another way.</p>
      </ConfirmDialog>
    </div>
  );
}
