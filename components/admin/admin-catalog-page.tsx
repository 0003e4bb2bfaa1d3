'use client';

// Operators: the routing table as in force — providers with the live health of each key (this server's
// runtime, refreshed every 10 s) and models with their endpoints — and the enable switches the admin API
// allows (SWITCHBOARD_CONFIG entries are read-only; a built-in provider is switched through an operator's
// entry naming its key variable; CUSTOM_PROVIDERS ones are overridden through the API). Operators' entries
// are added, edited and deleted here (provider-dialog.tsx, model-dialog.tsx); a model's Edit on a built-in
// makes the operator's entry that overrides it. The actions column stays in view on a phone (sticky).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage } from '@/components/console/errors';
import { formatRelative } from '@/components/console/format';
import { PageHeader, Section } from '@/components/console/page-header';
import { StatusBadge, type Tone } from '@/components/console/status-badge';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { ActionsTd, ActionsTh, Table, Td, Th } from '@/components/console/table';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { ModelDialog, type AdminModel } from './model-dialog';
import { ProviderDialog, type AdminProvider } from './provider-dialog';

const STATE_TONE: Record<string, Tone> = { healthy: 'success', half_open: 'warning', cooling: 'warning', open: 'danger' };

type Editing = { kind: 'provider'; provider?: AdminProvider } | { kind: 'model'; model?: AdminModel } | null;
type Deleting = { kind: 'provider' | 'model'; id: string } | null;

function HealthBadge({ state }: { state: string }) {
  return <StatusBadge tone={STATE_TONE[state] ?? 'neutral'}>{state.replace('_', ' ')}</StatusBadge>;
}

export function AdminCatalogPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const providers = useQuery(trpc.admin.providers.queryOptions());
  const health = useQuery({ ...trpc.admin.keyHealth.queryOptions(), refetchInterval: 10_000 });
  const models = useQuery(trpc.admin.models.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
  const onToggled = (what: string) => (out: { data: { id: string; enabled?: boolean } }) => {
    toast(`${what} ${out.data.id} ${out.data.enabled === false ? 'disabled' : 'enabled'}.`);
    void refresh();
  };
  const onError = (e: unknown) => toast(errorMessage(e), 'error');
  const setProvider = useMutation(trpc.admin.setProviderEnabled.mutationOptions({ onSuccess: onToggled('Provider'), onError }));
  const setModel = useMutation(trpc.admin.setModelEnabled.mutationOptions({ onSuccess: onToggled('Model'), onError }));
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const onDeleted = (out: { id: string; current: unknown }) => {
    toast(`${deleting?.kind === 'model' ? 'Model' : 'Provider'} ${out.id} deleted.${out.current ? ' The built-in entry of that id is served again.' : ''}`);
    setDeleting(null);
    void refresh();
  };
  const deleteProvider = useMutation(trpc.admin.deleteProvider.mutationOptions({ onSuccess: onDeleted }));
  const deleteModel = useMutation(trpc.admin.deleteModel.mutationOptions({ onSuccess: onDeleted }));
  const deletion = deleting?.kind === 'model' ? deleteModel : deleteProvider;
  const providerIds = (providers.data?.data ?? []).map((p) => p.id);

  return (
    <div className="space-y-8">
      <PageHeader
        title="Catalog & providers"
        description={
          <>
            The routing table in force on this server. Changes here are the admin API&apos;s (<code className="font-mono text-xs">/api/v1/admin/models</code>, <code className="font-mono text-xs">/providers</code>): every
            instance follows within seconds.
          </>
        }
      />

      <Section title="Provider keys: live health" description={health.data ? `This server's view, ${formatRelative(health.data.at)}; refreshed every 10 seconds.` : undefined}>
        {health.isPending ? (
          <LoadingBlock label="Loading key health" />
        ) : health.isError ? (
          <ErrorState message={errorMessage(health.error)} onRetry={() => health.refetch()} />
        ) : (
          <Table label="Provider key health">
            <thead>
              <tr>
                <Th>Provider</Th>
                <Th>Key</Th>
                <Th>State</Th>
                <Th className="text-right">Failures</Th>
                <Th>Until</Th>
                <Th>Last error</Th>
              </tr>
            </thead>
            <tbody>
              {health.data.providers.flatMap((p) =>
                p.keys.length === 0
                  ? [
                      <tr key={p.id}>
                        <Td className="font-mono text-xs">{p.id}</Td>
                        <Td colSpan={5} className="text-muted">
                          {p.configured === false ? `Not configured${p.missing ? `: ${p.missing}` : ''}` : 'No key needed'}
                        </Td>
                      </tr>,
                    ]
                  : p.keys.map((k) => (
                      <tr key={`${p.id}/${k.id}`}>
                        <Td className="font-mono text-xs">{p.id}</Td>
                        <Td className="font-mono text-xs">{k.id}</Td>
                        <Td>
                          <HealthBadge state={k.state} />
                        </Td>
                        <Td className="text-right tabular-nums">{k.consecutive_failures ?? '—'}</Td>
                        <Td className="text-muted">{k.seconds_left !== null ? `${k.seconds_left} s` : '—'}</Td>
                        <Td className="max-w-xs truncate text-muted">{k.last_error ?? '—'}</Td>
                      </tr>
                    )),
              )}
            </tbody>
          </Table>
        )}
      </Section>

      <Section
        title="Providers"
        actions={
          <Button size="sm" onClick={() => setEditing({ kind: 'provider' })}>
            Add provider
          </Button>
        }
      >
        {providers.isPending ? (
          <LoadingBlock label="Loading providers" />
        ) : providers.isError ? (
          <ErrorState message={errorMessage(providers.error)} onRetry={() => providers.refetch()} />
        ) : (
          <Table label="Providers">
            <thead>
              <tr>
                <Th>Provider</Th>
                <Th>Type</Th>
                <Th>Source</Th>
                <Th>Status</Th>
                <Th>Keys</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {providers.data.data.map((p) => (
                <tr key={p.id}>
                  <Td>
                    <span className="font-mono text-xs">{p.id}</span>
                    <div className="text-xs text-muted">{p.name}</div>
                  </Td>
                  <Td className="text-muted">{p.type}</Td>
                  <Td className="text-muted">{p.source.replace('_', ' ')}</Td>
                  <Td>
                    {!p.enabled ? <StatusBadge>disabled</StatusBadge> : !p.configured ? <StatusBadge tone="warning">not configured</StatusBadge> : <StatusBadge tone="success">enabled</StatusBadge>}
                  </Td>
                  <Td>
                    <span className="inline-flex flex-wrap gap-1">
                      {Object.entries(p.health).map(([key, state]) => (
                        <span key={key} className="inline-flex items-center gap-1 text-xs">
                          <span className="font-mono">{key}</span> <HealthBadge state={state} />
                        </span>
                      ))}
                      {Object.keys(p.health).length === 0 ? <span className="text-muted">—</span> : null}
                    </span>
                  </Td>
                  <ActionsTd>
                    <span className="inline-flex gap-2">
                      {p.source === 'admin' ? (
                        <>
                          <Button size="sm" variant="secondary" onClick={() => setEditing({ kind: 'provider', provider: p })}>
                            Edit<span className="sr-only"> provider {p.id}</span>
                          </Button>
                          <Button size="sm" variant="secondary" onClick={() => setDeleting({ kind: 'provider', id: p.id })}>
                            Delete<span className="sr-only"> provider {p.id}</span>
                          </Button>
                        </>
                      ) : null}
                      {p.source === 'admin' || p.source === 'builtin' ? (
                        <Button size="sm" variant="secondary" disabled={setProvider.isPending} onClick={() => setProvider.mutate({ id: p.id, enabled: !p.enabled })}>
                          {p.enabled ? 'Disable' : 'Enable'}
                          <span className="sr-only"> provider {p.id}</span>
                        </Button>
                      ) : (
                        <span className="text-xs text-muted">{p.read_only ? 'config file' : 'via API'}</span>
                      )}
                    </span>
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>

      <Section
        title="Models"
        description={models.data?.warnings.length ? `${models.data.warnings.length} routing warning(s): ${models.data.warnings.join('; ')}` : undefined}
        actions={
          <Button size="sm" onClick={() => setEditing({ kind: 'model' })} disabled={!providers.data}>
            Add model
          </Button>
        }
      >
        {models.isPending ? (
          <LoadingBlock label="Loading models" />
        ) : models.isError ? (
          <ErrorState message={errorMessage(models.error)} onRetry={() => models.refetch()} />
        ) : (
          <Table label="Models">
            <thead>
              <tr>
                <Th>Model</Th>
                <Th>Endpoints</Th>
                <Th>Source</Th>
                <Th>Status</Th>
                <ActionsTh />
              </tr>
            </thead>
            <tbody>
              {models.data.data.map((m) => (
                <tr key={m.id}>
                  <Td>
                    <span className="font-mono text-xs">{m.id}</span>
                    <div className="text-xs text-muted">{m.name}</div>
                  </Td>
                  <Td className="text-xs text-muted">{m.endpoints.map((e) => `${e.provider} (${e.upstream_model})`).join(', ') || '—'}</Td>
                  <Td className="text-muted">{m.source.replace('_', ' ')}</Td>
                  <Td>{!m.active ? <StatusBadge tone="warning">inactive</StatusBadge> : m.enabled ? <StatusBadge tone="success">enabled</StatusBadge> : <StatusBadge>disabled</StatusBadge>}</Td>
                  <ActionsTd>
                    {m.read_only ? (
                      <span className="text-xs text-muted">config file</span>
                    ) : (
                      <span className="inline-flex gap-2">
                        <Button size="sm" variant="secondary" onClick={() => setEditing({ kind: 'model', model: m })}>
                          Edit<span className="sr-only"> model {m.id}</span>
                        </Button>
                        {m.source === 'admin' ? (
                          <Button size="sm" variant="secondary" onClick={() => setDeleting({ kind: 'model', id: m.id })}>
                            Delete<span className="sr-only"> model {m.id}</span>
                          </Button>
                        ) : null}
                        <Button size="sm" variant="secondary" disabled={setModel.isPending} onClick={() => setModel.mutate({ id: m.id, enabled: !m.enabled })}>
                          {m.enabled ? 'Disable' : 'Enable'}
                          <span className="sr-only"> model {m.id}</span>
                        </Button>
                      </span>
                    )}
                  </ActionsTd>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>

      {editing?.kind === 'provider' ? <ProviderDialog key={editing.provider?.id ?? 'new'} open onClose={() => setEditing(null)} provider={editing.provider} /> : null}
      {editing?.kind === 'model' ? <ModelDialog key={editing.model?.id ?? 'new'} open onClose={() => setEditing(null)} model={editing.model} providers={providerIds} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => {
          setDeleting(null);
          deletion.reset();
        }}
        title={deleting?.kind === 'model' ? 'Delete this model?' : 'Delete this provider?'}
        confirmLabel={deleting?.kind === 'model' ? 'Delete model' : 'Delete provider'}
        pendingLabel="Deleting…"
        pending={deletion.isPending}
        error={deletion.error ? errorMessage(deletion.error) : null}
        onConfirm={() => deleting && deletion.mutate({ id: deleting.id })}
      >
        <p>
          {deleting?.kind === 'model'
            ? `Requests for ${deleting.id} are refused from the next one on every instance (a built-in model of that id comes back).`
            : `Provider ${deleting?.id ?? ''} is removed from every instance; its stored keys are deleted. A provider that models still route to is not deleted.`}
        </p>
      </ConfirmDialog>
    </div>
  );
}
