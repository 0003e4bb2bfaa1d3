'use client';

// Add a webhook: its URL and events (the service's schema validates them; its issues land on the fields),
// then the signing secret, shown this once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyField } from '@/components/console/copy-field';
import { Dialog } from '@/components/console/dialog';
import { readError, zodFieldErrors } from '@/components/console/errors';
import { CheckboxField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { createWebhookFormSchema, EVENT_DESCRIPTIONS, WEBHOOK_EVENTS } from './webhook-events';

export function CreateWebhookDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() }) }));
  const failure = create.error ? readError(create.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = createWebhookFormSchema.safeParse({ url, events });
    const local = zodFieldErrors(parsed);
    setErrors(local ?? {});
    if (local || !parsed.success) return;
    try {
      const created = await create.mutateAsync(parsed.data);
      setSecret(created.secret);
    } catch (err) {
      setErrors(readError(err).fields);
    }
  }

  if (secret) {
    return (
      <Dialog open onClose={onClose} title="Save the signing secret" description="This is the only time the secret is shown. Verify each delivery’s webhook-signature header with it.">
        <div className="space-y-5">
          <CopyField value={secret} label="Signing secret" />
          <Notice tone="warning">Store it now, e.g. in your secrets manager. Lost it? Delete the webhook and add it again.</Notice>
          <div className="flex justify-end border-t border-border pt-5">
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </div>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog open onClose={onClose} size="lg" title="Add a webhook" description="Events are POSTed as JSON to this URL.">
      <form onSubmit={submit} noValidate className="space-y-5">
        <TextField id="webhook-url" label="Endpoint URL" type="url" inputMode="url" placeholder="https://example.com/switchboard/events" value={url} onChange={(e) => setUrl(e.target.value)} error={errors.url} data-autofocus />
        <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend className="text-sm font-medium text-foreground">Events</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {WEBHOOK_EVENTS.map((type) => (
              <CheckboxField
                key={type}
                id={`webhook-event-${type}`}
                label={<span className="font-mono text-xs">{type}</span>}
                description={EVENT_DESCRIPTIONS[type]}
                checked={events.includes(type)}
                onChange={(e) => setEvents((list) => (e.target.checked ? [...list, type] : list.filter((x) => x !== type)))}
              />
            ))}
          </div>
          {errors.events ? (
            <p id="webhook-events-error" className="mt-2 text-xs font-medium text-red-700 dark:text-red-300">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <div className="flex justify-end gap-3 border-t border-border pt-5">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add webhook'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
