'use client';

// Edit a key: name, on/off, spend limit and its reset, expiry, allowed models, rate limits. Only changed
// fields are sent (PATCH semantics of updateApiKey); the service's schema validates and its issues land on
// the fields.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { Dialog } from '@/components/console/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Key = RouterOutputs['apiKeys']['list'][number];
type Reset = 'never' | 'daily' | 'weekly' | 'monthly';

export function EditKeyDialog({ apiKey, onClose }: { apiKey: Key | null; onClose: () => void }) {
  return (
    <Dialog open={apiKey !== null} onClose={onClose} size="lg" title="Edit API key" description={apiKey ? `${apiKey.name} · ${apiKey.hint}` : undefined}>
      {apiKey ? <EditKeyForm key={apiKey.id} apiKey={apiKey} onClose={onClose} /> : null}
    </Dialog>
  );
}

const intOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * The date field's value (YYYY-MM-DD) for a stored expiry, in the browser's zone: the expiry is saved as the
 * end of the picked day there, which west of UTC is already the next day in the ISO string.
 */
function localDay(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function EditKeyForm({ apiKey, onClose }: { apiKey: Key; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(apiKey.name);
  const [enabled, setEnabled] = useState(!apiKey.disabled);
  const [limit, setLimit] = useState(apiKey.credit_limit === null ? '' : String(apiKey.credit_limit));
  const [reset, setReset] = useState<Reset>(apiKey.limit_reset as Reset);
  const [expiry, setExpiry] = useState(localDay(apiKey.expires_at));
  const [models, setModels] = useState(apiKey.allowed_models.join('\n'));
  const [rpm, setRpm] = useState(apiKey.rate_limit_rpm === null ? '' : String(apiKey.rate_limit_rpm));
  const [tpm, setTpm] = useState(apiKey.rate_limit_tpm === null ? '' : String(apiKey.rate_limit_tpm));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useMutation(trpc.apiKeys.update.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }));
  const failure = update.error ? readError(update.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Number('7.5O') is NaN, which JSON sends as null: "remove the limit". Refuse a typo here instead.
    const notANumber = (text: string) => text.trim() !== '' && !Number.isFinite(Number(text));
    const local: Record<string, string> = {};
    if (notANumber(limit)) local.credit_limit = 'Enter an amount in US dollars, or leave it empty for no limit';
    if (notANumber(rpm)) local.rate_limit_rpm = 'Enter a whole number, or leave it empty for the server default';
    if (notANumber(tpm)) local.rate_limit_tpm = 'Enter a whole number, or leave it empty for no limit';
    setErrors(local);
    if (Object.keys(local).length) return;
    const allowed = models.split(/[\n,]+/).map((m) => m.trim()).filter(Boolean);
    const creditLimit = limit.trim() === '' ? null : Number(limit);
    const expiresAt = expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null;
    const patch = {
      ...(name !== apiKey.name ? { name } : {}),
      ...(enabled === apiKey.disabled ? { disabled: !enabled } : {}),
      ...(creditLimit !== apiKey.credit_limit ? { credit_limit: creditLimit } : {}),
      ...(reset !== apiKey.limit_reset ? { limit_reset: reset } : {}),
      ...(expiry !== localDay(apiKey.expires_at) ? { expires_at: expiresAt } : {}),
      ...(allowed.join('\n') !== apiKey.allowed_models.join('\n') ? { allowed_models: allowed } : {}),
      ...(intOrNull(rpm) !== apiKey.rate_limit_rpm ? { rate_limit_rpm: intOrNull(rpm) } : {}),
      ...(intOrNull(tpm) !== apiKey.rate_limit_tpm ? { rate_limit_tpm: intOrNull(tpm) } : {}),
    };
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    try {
      await update.mutateAsync({ id: apiKey.id, patch });
      toast(patch.disabled === true ? 'Key disabled. Requests with it are refused until you enable it.' : patch.disabled === false ? 'Key enabled.' : 'Key updated.');
      onClose();
    } catch (err) {
      const fields = readError(err).fields;
      setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^patch\./, ''), v])));
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <TextField id="edit-key-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required data-autofocus error={errors.name} />
      <CheckboxField
        id="edit-key-enabled"
        label="Enabled"
        description="A disabled key is refused (403) on every request until it is enabled again; unlike deletion this can be undone."
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="edit-key-limit" label="Spend limit" prefix="$" inputMode="decimal" value={limit} onChange={(e) => setLimit(e.target.value)} placeholder="No limit" error={errors.credit_limit} />
        <SelectField id="edit-key-reset" label="Limit resets" value={reset} onChange={(e) => setReset(e.target.value as Reset)} error={errors.limit_reset}>
          <option value="daily">Daily</option>
          <option value="weekly">Weekly</option>
          <option value="monthly">Monthly</option>
          <option value="never">Never (lifetime limit)</option>
        </SelectField>
      </div>
      <TextField id="edit-key-expiry" label="Expires on" hint="Empty: never expires." type="date" value={expiry} onChange={(e) => setExpiry(e.target.value)} error={errors.expires_at} />
      <div>
        <label htmlFor="edit-key-models" className="block text-sm font-medium text-foreground">
          Allowed models
        </label>
        <textarea
          id="edit-key-models"
          value={models}
          onChange={(e) => setModels(e.target.value)}
          rows={3}
          aria-describedby="edit-key-models-hint"
          className="mt-1.5 block w-full rounded-lg border border-border-strong bg-background px-3 py-2 font-mono text-xs text-foreground"
          placeholder="All models"
        />
        <p id="edit-key-models-hint" className="mt-1.5 text-xs text-muted">
          One model id per line (e.g. openai/gpt-4o-mini). Empty: every model.
        </p>
        {errors.allowed_models ? <p className="mt-1.5 text-xs font-medium text-red-700 dark:text-red-300">{errors.allowed_models}</p> : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="edit-key-rpm" label="Requests per minute" inputMode="numeric" value={rpm} onChange={(e) => setRpm(e.target.value)} placeholder="Server default" error={errors.rate_limit_rpm} />
        <TextField id="edit-key-tpm" label="Tokens per minute" inputMode="numeric" value={tpm} onChange={(e) => setTpm(e.target.value)} placeholder="No limit" error={errors.rate_limit_tpm} />
      </div>
      {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
      <div className="flex justify-end gap-3 border-t border-border pt-5">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
