'use client';

// The account's webhooks (URL, events, delivery log) and its low-balance alert. A webhook's signing secret is
// shown once, when it is created. "Send test" queues a signed webhook.test event for one webhook and shows
// that webhook's delivery log, where the test's delivery appears and then its outcome.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { formatDateTime } from '@/components/console/format';
import { Icon } from '@/components/console/icons';
import { PageHeader, Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { AlertSection } from './alert-section';
import { CreateWebhookDialog } from './create-webhook-dialog';
import { DeliveryLog } from './delivery-log';

type Webhook = RouterOutputs['webhooks']['list']['data'][number];

export function WebhooksPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { account, can } = useConsoleSession();
  const allowed = can('webhooks:manage');
  const webhooks = useQuery({ ...trpc.webhooks.list.queryOptions(), enabled: allowed });
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (_delivery, input) => {
        toast('Test event queued: see the delivery log');
        setSelected(input.id);
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: (r) => {
        toast('Webhook deleted');
        setDeleting(null);
        if (selected === r.data.id) setSelected(null);
        return queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );

  const header = (
    <PageHeader
      title="Webhooks & alerts"
      description={
        <>
          Events of <span className="font-medium text-foreground">{account.name}</span> (payments, keys, members, low balance, limits) are POSTed to your URLs, signed
          with the Standard Webhooks scheme, and retried with backoff until your endpoint answers 2xx.
        </>
      }
      actions={
        allowed ? (
          <Button onClick={() => setCreating(true)}>
            <Icon name="plus" className="size-4" /> Add webhook
          </Button>
        ) : undefined
      }
    />
  );
  if (!allowed) {
    return (
      <div className="space-y-8">
        {header}
        <EmptyState title="Your role cannot manage webhooks">Ask an owner or admin of {account.name}.</EmptyState>
      </div>
    );
  }
  const list = webhooks.data?.data ?? [];
  const current = list.find((w) => w.id === selected) ?? list[0];
  return (
    <div className="space-y-8">
      {header}
      <Section title="Endpoints">
        {webhooks.isPending ? (
          <LoadingBlock label="Loading webhooks" />
        ) : webhooks.isError ? (
          <ErrorState message={errorMessage(webhooks.error)} onRetry={() => webhooks.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon={<Icon name="send" />} title="No webhooks yet" action={<Button onClick={() => setCreating(true)}>Add your first webhook</Button>}>
            Add an https URL of yours and choose the events it should receive.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-border">
            {list.map((w) => (
              <li key={w.id} className={cx('flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between')}>
                <div className="min-w-0">
                  <p className="font-mono text-sm break-all text-foreground">{w.url}</p>
                  <p className="mt-1 text-xs text-muted">
                    {w.events.join(', ')} · added {formatDateTime(w.created_at)}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap gap-2">
                  <Button size="sm" variant={current?.id === w.id ? 'primary' : 'secondary'} aria-pressed={current?.id === w.id} onClick={() => setSelected(w.id)} aria-label={`Show deliveries of ${w.url}`}>
                    Deliveries
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={sendTest.isPending && sendTest.variables?.id === w.id}
                    onClick={() => sendTest.mutate({ id: w.id })}
                    aria-label={`Send a test event to ${w.url}`}
                  >
                    <Icon name="send" className="size-4" /> Send test
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(w)} aria-label={`Delete webhook ${w.url}`}>
                    <Icon name="trash" className="size-4" /> Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {current ? <DeliveryLog webhook={current} /> : null}
      <AlertSection />
      {creating ? <CreateWebhookDialog onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
      >
        <p>
          <span className="font-mono break-all">{deleting?.url}</span> stops receiving events, and its delivery log is deleted with it.
        </p>
      </ConfirmDialog>
    </div>
  );
}
