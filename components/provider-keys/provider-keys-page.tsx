'use client';

// The account's own provider keys (bring your own key): requests routed to that provider use the account's
// key instead of the server's. Keys are stored encrypted and shown masked (a hint); replacing one is adding
// it again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { useConsoleSession } from '@/components/console/console-session';
import { Dialog } from '@/components/console/dialog';
import { errorMessage, readError } from '@/components/console/errors';
import { SelectField, TextField } from '@/components/console/fields';
import { formatDateTime } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { Notice } from '@/components/console/notice';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

export function ProviderKeysPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { account, can } = useConsoleSession();
  const allowed = can('provider-keys:manage');
  const keys = useQuery({ ...trpc.providerKeys.list.queryOptions(), enabled: allowed });
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const remove = useMutation(
    trpc.providerKeys.delete.mutationOptions({
      onSuccess: (r) => {
        toast(`Key for ${r.provider} deleted`);
        setDeleting(null);
        return queryClient.invalidateQueries({ queryKey: trpc.providerKeys.list.queryKey() });
      },
    }),
  );

  const header = (
    <PageHeader
      title="Provider keys"
      description={
        <>
          Bring your own key: requests of <span className="font-medium text-foreground">{account.name}</span> routed to a provider use your key for it instead of
          this server&apos;s, and that provider bills you for them (your balance pays only this server&apos;s fee for such requests, if it charges one). Keys are
          stored encrypted and never shown again.
        </>
      }
      actions={
        allowed ? (
          <Button onClick={() => setAdding(true)}>
            <Icon name="plus" className="size-4" /> Add key
          </Button>
        ) : undefined
      }
    />
  );
  if (!allowed) {
    return (
      <div className="space-y-8">
        {header}
        <EmptyState title="Your role cannot manage provider keys">Ask an owner or admin of {account.name}.</EmptyState>
      </div>
    );
  }
  return (
    <div className="space-y-8">
      {header}
      <Section title="Your keys">
        {keys.isPending ? (
          <LoadingBlock label="Loading provider keys" />
        ) : keys.isError ? (
          <ErrorState message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />
        ) : keys.data.length === 0 ? (
          <EmptyState icon={<Icon name="key" />} title="No provider keys" action={<Button onClick={() => setAdding(true)}>Add a provider key</Button>}>
            Requests use this server&apos;s own provider keys. Add yours to have the provider bill you directly.
          </EmptyState>
        ) : (
          <Table label="Provider keys">
            <thead>
              <tr>
                <Th>Provider</Th>
                <Th>Key</Th>
                <Th>Updated</Th>
                <ActionsTh>Actions</ActionsTh>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((k) => (
                <tr key={k.provider}>
                  <Td className="font-medium">{k.provider}</Td>
                  <Td className="font-mono text-xs">{k.hint}</Td>
                  <Td className="text-muted">{formatDateTime(k.updated_at)}</Td>
                  <ActionsTd>
                    <Button size="sm" variant="ghost" onClick={() => setDeleting(k.provider)} aria-label={`Delete key for ${k.provider}`}>
                      <Icon name="trash" className="size-4" /> Delete
                    </Button>
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      {adding ? <AddKeyDialog onClose={() => setAdding(false)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() => deleting && remove.mutate({ provider: deleting })}
        title={`Delete the key for ${deleting ?? ''}?`}
        confirmLabel="Delete key"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
      >
        <p>Requests routed to this provider go back to the server&apos;s own keys and are billed to your balance.</p>
      </ConfirmDialog>
    </div>
  );
}

function AddKeyDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const providers = useQuery(trpc.providerKeys.providers.queryOptions());
  const [provider, setProvider] = useState('');
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = useMutation(trpc.providerKeys.set.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.providerKeys.list.queryKey() }) }));
  const failure = set.error ? readError(set.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!provider) local.provider = 'Choose a provider';
    if (key.trim().length < 8) local.key = 'Paste the provider’s API key (8 characters or more)';
    else if (/\s/.test(key.trim())) local.key = 'The key must not contain spaces or line breaks';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const saved = await set.mutateAsync({ provider, key: key.trim() });
      toast(`Key for ${saved.provider} saved (${saved.hint})`);
      onClose();
    } catch (err) {
      setErrors(readError(err).fields);
    }
  }

  return (
    <Dialog open onClose={onClose} title="Add a provider key" description="Adding a key for a provider that has one replaces it.">
      <form onSubmit={submit} noValidate className="space-y-5">
        <SelectField id="provider-key-provider" label="Provider" value={provider} onChange={(e) => setProvider(e.target.value)} error={errors.provider} data-autofocus hint="Providers that take one API key; cloud providers (Bedrock, Vertex, Azure) need the operator’s credentials.">
          <option value="">{providers.isPending ? 'Loading…' : 'Choose a provider'}</option>
          {(providers.data ?? []).map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </SelectField>
        <TextField id="provider-key-key" label="API key" type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} error={errors.key} />
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end gap-3 border-t border-border pt-5">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={set.isPending}>
            {set.isPending ? 'Saving…' : 'Save key'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
