'use client';

// Rotate a key: a new secret, shown once (focus moves to it); the old one is revoked at once or keeps working
// for a chosen grace period while the new one is rolled out. Same key: id, limits and usage are kept.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { Dialog } from '@/components/console/dialog';
import { SelectField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { KeyCreated } from './key-created';

type Key = RouterOutputs['apiKeys']['list'][number];
type Rotated = RouterOutputs['apiKeys']['rotate'];

const GRACE = [
  { seconds: 0, label: 'Revoke the old key now' },
  { seconds: 3600, label: 'Keep it working for 1 hour' },
  { seconds: 86_400, label: 'Keep it working for 24 hours' },
  { seconds: 7 * 86_400, label: 'Keep it working for 7 days' },
] as const;

export function RotateKeyDialog({ apiKey, onClose }: { apiKey: Key | null; onClose: () => void }) {
  const [rotated, setRotated] = useState<Rotated | null>(null);
  const close = () => {
    setRotated(null);
    onClose();
  };
  return (
    <Dialog
      open={apiKey !== null}
      onClose={close}
      size="lg"
      title={rotated ? 'Save your new API key' : 'Rotate API key'}
      description={rotated ? 'This is the only time the new key is shown.' : apiKey ? `${apiKey.name} · ${apiKey.hint}` : undefined}
    >
      {rotated ? (
        <KeyCreated
          created={rotated}
          onDone={close}
          notice={
            rotated.apiKey.previous_key
              ? `The old key (${rotated.apiKey.previous_key.hint}) keeps working until ${new Date(rotated.apiKey.previous_key.expires_at).toLocaleString()}. You won’t be able to see this key again.`
              : 'The old key no longer works. You won’t be able to see this key again.'
          }
        />
      ) : apiKey ? (
        <RotateForm apiKey={apiKey} onCancel={close} onRotated={setRotated} />
      ) : null}
    </Dialog>
  );
}

function RotateForm({ apiKey, onCancel, onRotated }: { apiKey: Key; onCancel: () => void; onRotated: (r: Rotated) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [grace, setGrace] = useState('0');
  const rotate = useMutation(trpc.apiKeys.rotate.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }));
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      onRotated(await rotate.mutateAsync({ id: apiKey.id, grace_period_seconds: Number(grace) }));
    } catch {
      // shown below
    }
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-muted">The key keeps its name, limits, spend and usage history; only the secret changes.</p>
      <SelectField id="rotate-grace" label="The old key" value={grace} onChange={(e) => setGrace(e.target.value)} data-autofocus>
        {GRACE.map((g) => (
          <option key={g.seconds} value={String(g.seconds)}>
            {g.label}
          </option>
        ))}
      </SelectField>
      {rotate.error ? <Notice tone="error">{readError(rotate.error).message}</Notice> : null}
      <div className="flex justify-end gap-3 border-t border-border pt-5">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={rotate.isPending}>
          {rotate.isPending ? 'Rotating…' : 'Rotate key'}
        </Button>
      </div>
    </form>
  );
}
