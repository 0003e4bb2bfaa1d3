'use client';

// Create a key: name, spend limit and its reset, expiry and allowed models. The service's own schema
// (createApiKeyInput) validates it on the server and its issues land on the fields; the secret is then
// shown once, with a copy button and a first request to paste.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { Dialog } from '@/components/console/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { KeyCreated } from './key-created';

const EXPIRY = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'custom', label: 'On a date…' },
] as const;

type Created = RouterOutputs['apiKeys']['create'];

export function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<Created | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      size="lg"
      title={created ? 'Save your API key' : 'Create an API key'}
      description={created ? 'This is the only time the key is shown. Store it somewhere safe, such as a secrets manager.' : 'Limits apply to this key only; the account balance still applies.'}
    >
      {created ? <KeyCreated created={created} onDone={close} /> : <CreateKeyForm onCancel={close} onCreated={setCreated} />}
    </Dialog>
  );
}

function CreateKeyForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (c: Created) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const models = useQuery(trpc.models.list.queryOptions());
  const [name, setName] = useState('');
  const [limit, setLimit] = useState('');
  const [reset, setReset] = useState<'never' | 'daily' | 'weekly' | 'monthly'>('monthly');
  const [expiry, setExpiry] = useState<(typeof EXPIRY)[number]['value']>('never');
  const [expiryDate, setExpiryDate] = useState('');
  const [restrict, setRestrict] = useState(false);
  const [allowed, setAllowed] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tomorrow] = useState(() => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
  const create = useMutation(
    trpc.apiKeys.create.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }),
  );
  const failure = create.error ? readError(create.error) : null;

  function expiresAt(): string | null {
    if (expiry === 'never') return null;
    if (expiry === 'custom') return expiryDate ? new Date(`${expiryDate}T23:59:59`).toISOString() : '';
    return new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Name is required';
    if (limit && !(Number(limit) > 0)) local.credit_limit = 'Enter a positive amount, or leave it empty for no limit';
    if (expiry === 'custom' && !expiryDate) local.expires_at = 'Pick a date';
    if (restrict && allowed.length === 0) local.allowed_models = 'Choose at least one model, or allow all models';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const result = await create.mutateAsync({
        name,
        credit_limit: limit ? Number(limit) : null,
        limit_reset: limit ? reset : 'never',
        expires_at: expiresAt(),
        allowed_models: restrict ? allowed : [],
      });
      onCreated(result);
    } catch (err) {
      setErrors(readError(err).fields);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField id="key-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required data-autofocus placeholder="e.g. Production backend" error={errors.name} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="key-limit"
          label="Spend limit (optional)"
          prefix="$"
          inputMode="decimal"
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          placeholder="No limit"
          error={errors.credit_limit}
        />
        <SelectField id="key-reset" label="Limit resets" value={reset} onChange={(e) => setReset(e.target.value as typeof reset)} disabled={!limit} error={errors.limit_reset}>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
          <option value="never">Never (lifetime limit)</option>
        </SelectField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField id="key-expiry" label="Expires" value={expiry} onChange={(e) => setExpiry(e.target.value as typeof expiry)} error={expiry === 'custom' ? undefined : errors.expires_at}>
          {EXPIRY.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
        {expiry === 'custom' ? (
          <TextField id="key-expiry-date" label="Expiry date" type="date" value={expiryDate} min={tomorrow} onChange={(e) => setExpiryDate(e.target.value)} error={errors.expires_at} />
        ) : null}
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-foreground">Models</legend>
        <div className="mt-2 space-y-2">
          <CheckboxField id="key-restrict" label="Only allow specific models" description="Requests for any other model are refused with 403." checked={restrict} onChange={(e) => setRestrict(e.target.checked)} />
          {restrict ? (
            <div className="ml-7 grid max-h-48 gap-2 overflow-y-auto rounded-lg border border-border p-3 sm:grid-cols-2">
              {models.isPending ? <p className="text-sm text-muted">Loading models…</p> : null}
              {(models.data ?? []).map((m) => (
                <CheckboxField
                  key={m.id}
                  id={`key-model-${m.id}`}
                  label={<span className="font-mono text-xs">{m.id}</span>}
                  checked={allowed.includes(m.id)}
                  onChange={(e) => setAllowed((list) => (e.target.checked ? [...list, m.id] : list.filter((x) => x !== m.id)))}
                />
              ))}
            </div>
          ) : null}
          {errors.allowed_models ? <p className="ml-7 text-xs font-medium text-red-700 dark:text-red-300">{errors.allowed_models}</p> : null}
        </div>
      </fieldset>
      {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
      <div className="flex justify-end gap-3 border-t border-border pt-5">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </Button>
      </div>
    </form>
  );
}
