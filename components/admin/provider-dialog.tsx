'use client';

// Add or edit an operator's provider: the admin API's body (server/routing/config-schema.ts
// providerObjectSchema) as a form, showing only the fields of the chosen type. Keys are write-only: a stored
// key shows its hint and goes back as `{ id, stored: true }` (the server keeps the secret) unless a new key is
// typed over it. Headers are not edited here (they go back as they were); the API sets them.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/console/dialog';
import { CheckboxField, SelectField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { PROVIDER_TYPES } from '@/server/routing/config-schema';
import { fieldError, filled, formErrors, NO_ERRORS, numberOrUndefined, text, type FormErrors } from './catalog-form';

export type AdminProvider = RouterOutputs['admin']['providers']['data'][number];

/** The cloud fields each type reads (README "Cloud providers"); other types take none. */
/** A field with `options` is a choice; its first option's value is '' (the field left out: the server's default). */
const TYPE_FIELDS: Record<string, { name: string; label: string; hint?: string; options?: { value: string; label: string }[] }[]> = {
  bedrock: [
    { name: 'region', label: 'AWS region', hint: 'e.g. us-east-1; the endpoint is bedrock-runtime.<region>.amazonaws.com unless a base URL is set' },
    {
      name: 'aws_credentials',
      label: 'AWS credentials',
      hint: 'The default chain: EKS IRSA, ECS task role, EC2 instance role, SSO, renewed before they expire',
      options: [
        { value: '', label: 'From the variables below' },
        { value: 'default', label: 'The AWS SDK’s default chain' },
      ],
    },
    { name: 'access_key_id_env', label: 'Access key id variable', hint: 'Default AWS_ACCESS_KEY_ID' },
    { name: 'secret_access_key_env', label: 'Secret access key variable', hint: 'Default AWS_SECRET_ACCESS_KEY' },
    { name: 'session_token_env', label: 'Session token variable', hint: 'Default AWS_SESSION_TOKEN' },
  ],
  vertex: [
    { name: 'project', label: 'Google Cloud project' },
    { name: 'location', label: 'Location', hint: 'global, or a region such as us-east5' },
    { name: 'credentials_file', label: 'Service-account key file', hint: 'A file inside SWITCHBOARD_CREDENTIALS_DIR on the server (its path, never its contents)' },
    { name: 'credentials_env', label: 'Service-account key variable', hint: 'Or: the environment variable holding the key JSON' },
  ],
  'azure-openai': [
    { name: 'api_version', label: 'API version', hint: 'e.g. 2024-10-21; leave blank for Azure’s v1 API. The deployment is each endpoint’s upstream model' },
    { name: 'tenant_id', label: 'Entra ID tenant id', hint: 'Entra ID client credentials instead of a key' },
    { name: 'client_id', label: 'Entra ID client id' },
    { name: 'client_secret_env', label: 'Client secret variable' },
    { name: 'token_url', label: 'Token URL', hint: 'Default https://login.microsoftonline.com/{tenant_id}/oauth2/v2.0/token' },
  ],
};

const BASE_URL_HINT: Record<string, string> = {
  'openai-compatible': 'Required: the server’s OpenAI-compatible base, e.g. http://localhost:11434/v1',
  'azure-openai': 'Your resource, e.g. https://contoso.openai.azure.com (or …/openai/v1)',
  bedrock: 'Optional: instead of the region’s endpoint',
  vertex: 'Optional: instead of the location’s endpoint',
};

interface KeyRow {
  row: number;
  id: string;
  /** env: a variable's name; key: a literal key typed now; stored: a stored secret, kept unless replaced. */
  source: 'env' | 'key' | 'stored';
  keyEnv: string;
  secret: string;
  hint?: string;
  weight: string;
}

let nextRow = 0;
const newRow = (source: KeyRow['source']): KeyRow => ({ row: nextRow++, id: '', source, keyEnv: '', secret: '', weight: '1' });

function rowsOf(p: AdminProvider | undefined): KeyRow[] {
  return (p?.keys ?? []).map((k) => ({
    row: nextRow++,
    id: k.id,
    source: k.stored ? 'stored' : 'env',
    keyEnv: k.key_env ?? '',
    secret: '',
    hint: k.key_hint,
    weight: String(k.weight),
  }));
}

function keyBody(k: KeyRow) {
  const weight = numberOrUndefined(k.weight) ?? 1;
  const id = k.id.trim() || undefined;
  if (k.source === 'stored') return k.secret ? { id, key: k.secret, weight } : { id, stored: true, weight };
  if (k.source === 'key') return { id, key: k.secret, weight };
  return { id, key_env: k.keyEnv.trim(), weight };
}

export function ProviderDialog({ open, onClose, provider }: { open: boolean; onClose: () => void; provider?: AdminProvider }) {
  const editing = provider !== undefined;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [type, setType] = useState<string>(provider?.type ?? 'openai-compatible');
  const [fields, setFields] = useState<Record<string, string>>(() => ({
    id: provider?.id ?? '',
    name: provider && provider.name !== provider.id ? text(provider.name) : '',
    base_url: text(provider?.base_url),
    timeout_ms: text(provider?.timeout_ms),
    ...Object.fromEntries(
      Object.values(TYPE_FIELDS)
        .flat()
        .map((f) => {
          const value = text((provider as Record<string, unknown> | undefined)?.[f.name]);
          // A value the choice does not list (the server's default spelled out, `variables`) shows as the default.
          return [f.name, f.options && !f.options.some((o) => o.value === value) ? '' : value];
        }),
    ),
  }));
  const [streamOptions, setStreamOptions] = useState(provider?.supports_stream_options ?? true);
  const [keys, setKeys] = useState<KeyRow[]>(() => rowsOf(provider));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const typeFields = TYPE_FIELDS[type] ?? [];
  const shown = (path: string) => ['id', 'type', 'name', 'base_url', 'timeout_ms', 'keys', ...typeFields.map((f) => f.name)].some((f) => path === f || path.startsWith(`${f}.`));

  const done = (out: { data: { id: string }; warnings: string[] }) => {
    toast(`Provider ${out.data.id} ${editing ? 'saved' : 'added'}.${out.warnings.length ? ` ${out.warnings.join('; ')}` : ''}`);
    void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    onClose();
  };
  const onError = (e: unknown) => setErrors(formErrors(e, shown));
  const create = useMutation(trpc.admin.createProvider.mutationOptions({ onSuccess: done, onError }));
  const replace = useMutation(trpc.admin.replaceProvider.mutationOptions({ onSuccess: done, onError }));
  const pending = create.isPending || replace.isPending;

  const set = (name: string) => ({ value: fields[name] ?? '', onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })) });
  const setKey = (row: number, patch: Partial<KeyRow>) => setKeys((ks) => ks.map((k) => (k.row === row ? { ...k, ...patch } : k)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors(NO_ERRORS);
    const cloud = filled(Object.fromEntries(typeFields.map((f) => [f.name, fields[f.name] ?? ''])));
    const entry = {
      id: fields.id.trim(),
      type,
      ...filled({ name: fields.name, base_url: fields.base_url }),
      keys: keys.map(keyBody),
      headers: provider?.headers ?? {},
      supports_stream_options: type === 'openai-compatible' ? streamOptions : (provider?.supports_stream_options ?? true),
      enabled: provider?.enabled ?? true,
      ...(numberOrUndefined(fields.timeout_ms) !== undefined ? { timeout_ms: numberOrUndefined(fields.timeout_ms) } : {}),
      ...cloud,
    };
    if (editing) replace.mutate({ id: provider.id, entry });
    else create.mutate(entry);
  };

  const err = (path: string) => fieldError(errors, path);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={editing ? `Edit provider ${provider.id}` : 'Add provider'}
      description={editing ? 'Stored keys are never shown: leave a key blank to keep it.' : 'An operator’s provider: every instance serves it within seconds.'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="provider-form" disabled={pending}>
            {pending ? 'Saving…' : editing ? 'Save provider' : 'Add provider'}
          </Button>
        </>
      }
    >
      <form id="provider-form" aria-label={editing ? 'Edit provider' : 'Add provider'} onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField id="provider-type" label="Type" value={type} onChange={(e) => setType(e.target.value)} disabled={editing} error={err('type')} data-autofocus={editing ? undefined : true}>
            {PROVIDER_TYPES.filter((t) => t !== 'echo').map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </SelectField>
          <TextField id="provider-id" label="Provider id" hint="Lower-case letters, digits and dashes" readOnly={editing} {...set('id')} error={err('id')} autoComplete="off" />
          <TextField id="provider-name" label="Display name" hint="Optional; the id by default" {...set('name')} error={err('name')} data-autofocus={editing ? true : undefined} />
          <TextField id="provider-base-url" label="Base URL" type="url" hint={BASE_URL_HINT[type] ?? 'Optional: the public API by default'} {...set('base_url')} error={err('base_url')} />
          {typeFields.map((f) =>
            f.options ? (
              <SelectField key={f.name} id={`provider-${f.name}`} label={f.label} hint={f.hint} {...set(f.name)} error={err(f.name)}>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </SelectField>
            ) : (
              <TextField key={f.name} id={`provider-${f.name}`} label={f.label} hint={f.hint} {...set(f.name)} error={err(f.name)} autoComplete="off" />
            ),
          )}
          <TextField id="provider-timeout" label="Timeout (ms)" inputMode="numeric" hint="Time to the response headers before the next endpoint is tried; default 600000" {...set('timeout_ms')} error={err('timeout_ms')} />
        </div>
        {type === 'openai-compatible' ? (
          <CheckboxField id="provider-stream-options" label="Supports stream_options" description="The server reports usage in streams when asked" checked={streamOptions} onChange={(e) => setStreamOptions(e.target.checked)} />
        ) : null}

        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-foreground">Keys</legend>
          <p className="text-xs text-muted">Name an environment variable holding the key, or type the key (stored encrypted, never shown again).</p>
          {keys.map((k, i) => (
            <div key={k.row} className="grid gap-3 rounded-xl border border-border p-3 sm:grid-cols-[1fr_1fr_5rem_auto] sm:items-start">
              <TextField id={`key-${k.row}-id`} label="Key id" hint={k.source === 'stored' ? undefined : 'Optional'} value={k.id} readOnly={k.source === 'stored'} onChange={(e) => setKey(k.row, { id: e.target.value })} autoComplete="off" />
              {k.source === 'env' ? (
                <TextField id={`key-${k.row}-env`} label="Variable" value={k.keyEnv} onChange={(e) => setKey(k.row, { keyEnv: e.target.value })} autoComplete="off" error={err(`keys.${i}`)} />
              ) : (
                <TextField
                  id={`key-${k.row}-secret`}
                  label={k.source === 'stored' ? `Replace stored key ${k.hint ?? ''}` : 'Key'}
                  type="password"
                  autoComplete="new-password"
                  hint={k.source === 'stored' ? 'Leave blank to keep it' : undefined}
                  value={k.secret}
                  onChange={(e) => setKey(k.row, { secret: e.target.value })}
                  error={err(`keys.${i}`)}
                />
              )}
              <TextField id={`key-${k.row}-weight`} label="Weight" inputMode="decimal" value={k.weight} onChange={(e) => setKey(k.row, { weight: e.target.value })} />
              <Button variant="ghost" size="sm" className="sm:mt-7" onClick={() => setKeys((ks) => ks.filter((x) => x.row !== k.row))}>
                Remove<span className="sr-only"> key {i + 1}</span>
              </Button>
            </div>
          ))}
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={() => setKeys((ks) => [...ks, newRow('env')])}>
              Add key variable
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setKeys((ks) => [...ks, newRow('key')])}>
              Add key
            </Button>
          </div>
        </fieldset>
        {errors.message ? <Notice tone="error">{errors.message}</Notice> : null}
      </form>
    </Dialog>
  );
}
