'use client';

// Add or edit a model: the admin API's body (server/routing/config-schema.ts modelConfigSchema) as a form.
// Prices are typed in USD per million tokens and sent as such, the REST API's numbers: the server turns them
// into integer micro-dollars (one conversion, build-routing-table.ts), so the console cannot price differently.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/console/dialog';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { fieldError, formErrors, NO_ERRORS, numberOrUndefined, text, type FormErrors } from './catalog-form';

export type AdminModel = RouterOutputs['admin']['models']['data'][number];

const PRICES = [
  { name: 'input', label: 'Input $/M', required: true },
  { name: 'output', label: 'Output $/M', required: true },
  { name: 'cache_read', label: 'Cache read $/M', required: false },
  { name: 'cache_write', label: 'Cache write $/M', required: false },
  { name: 'cache_write_1h', label: 'Cache write 1 h $/M', required: false },
] as const;
type PriceName = (typeof PRICES)[number]['name'];

interface EndpointRow {
  row: number;
  provider: string;
  upstream_model: string;
  prices: Record<PriceName, string>;
  context_length: string;
  max_output_tokens: string;
}

const FLAGS = [
  { name: 'supports_tools', label: 'Tools' },
  { name: 'supports_reasoning', label: 'Reasoning' },
  { name: 'supports_images', label: 'Images' },
  { name: 'supports_pdf', label: 'PDF documents' },
] as const;
type FlagName = (typeof FLAGS)[number]['name'];

let nextRow = 0;

function endpointRows(m: AdminModel | undefined, firstProvider: string): EndpointRow[] {
  if (!m) return [{ row: nextRow++, provider: firstProvider, upstream_model: '', prices: { input: '', output: '', cache_read: '', cache_write: '', cache_write_1h: '' }, context_length: '', max_output_tokens: '' }];
  return m.endpoints.map((e) => ({
    row: nextRow++,
    provider: e.provider,
    upstream_model: e.upstream_model,
    prices: { input: text(e.pricing.input), output: text(e.pricing.output), cache_read: text(e.pricing.cache_read), cache_write: text(e.pricing.cache_write), cache_write_1h: text(e.pricing.cache_write_1h) },
    context_length: text(e.context_length === m.context_length ? undefined : e.context_length),
    max_output_tokens: text(e.max_output_tokens === m.max_output_tokens ? undefined : e.max_output_tokens),
  }));
}

function endpointBody(e: EndpointRow) {
  const pricing: Record<string, number> = {};
  for (const p of PRICES) {
    const value = numberOrUndefined(e.prices[p.name]);
    // A required price left blank goes as NaN: the server names the field ("expected number").
    if (value !== undefined || p.required) pricing[p.name] = value ?? Number.NaN;
  }
  const context = numberOrUndefined(e.context_length);
  const maxOutput = numberOrUndefined(e.max_output_tokens);
  return { provider: e.provider, upstream_model: e.upstream_model.trim(), pricing, ...(context !== undefined ? { context_length: context } : {}), ...(maxOutput !== undefined ? { max_output_tokens: maxOutput } : {}) };
}

export function ModelDialog({ open, onClose, model, providers }: { open: boolean; onClose: () => void; model?: AdminModel; providers: string[] }) {
  const editing = model !== undefined;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [fields, setFields] = useState({
    id: model?.id ?? '',
    name: model?.name ?? '',
    description: model?.description ?? '',
    kind: model?.kind ?? 'chat',
    context_length: text(model?.context_length),
    max_output_tokens: text(model?.max_output_tokens),
    aliases: (model?.aliases ?? []).join(', '),
  });
  const [flags, setFlags] = useState<Record<FlagName, boolean>>({
    supports_tools: model?.supports_tools ?? true,
    supports_reasoning: model?.supports_reasoning ?? false,
    supports_images: model?.supports_images ?? false,
    supports_pdf: model?.supports_pdf ?? false,
  });
  const [endpoints, setEndpoints] = useState<EndpointRow[]>(() => endpointRows(model, providers[0] ?? ''));
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const shown = (path: string) => ['id', 'name', 'description', 'kind', 'context_length', 'max_output_tokens', 'aliases', 'endpoints'].some((f) => path === f || path.startsWith(`${f}.`));

  const done = (out: { data: { id: string }; warnings: string[] }) => {
    toast(`Model ${out.data.id} ${editing ? 'saved' : 'added'}.${out.warnings.length ? ` ${out.warnings.join('; ')}` : ''}`);
    void queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
    onClose();
  };
  const onError = (e: unknown) => setErrors(formErrors(e, shown));
  const create = useMutation(trpc.admin.createModel.mutationOptions({ onSuccess: done, onError }));
  const replace = useMutation(trpc.admin.replaceModel.mutationOptions({ onSuccess: done, onError }));
  const pending = create.isPending || replace.isPending;

  const set = (name: keyof typeof fields) => ({ value: fields[name], onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })) });
  const setEndpoint = (row: number, patch: Partial<EndpointRow>) => setEndpoints((es) => es.map((e) => (e.row === row ? { ...e, ...patch } : e)));
  const setPrice = (row: number, name: PriceName, value: string) => setEndpoints((es) => es.map((e) => (e.row === row ? { ...e, prices: { ...e.prices, [name]: value } } : e)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors(NO_ERRORS);
    const entry = {
      id: fields.id.trim(),
      name: fields.name.trim(),
      description: fields.description,
      kind: fields.kind,
      context_length: numberOrUndefined(fields.context_length) ?? Number.NaN,
      max_output_tokens: numberOrUndefined(fields.max_output_tokens) ?? Number.NaN,
      ...flags,
      aliases: fields.aliases.split(',').map((a) => a.trim()).filter(Boolean),
      endpoints: endpoints.map(endpointBody),
      enabled: model?.enabled ?? true,
    };
    if (editing) replace.mutate({ id: model.id, entry });
    else create.mutate(entry);
  };

  const err = (path: string) => fieldError(errors, path);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title={editing ? `Edit model ${model.id}` : 'Add model'}
      description={model?.source === 'builtin' ? 'A built-in model: saving makes an operator’s entry that overrides it (deleting that entry brings the built-in back).' : 'Prices in US dollars per million tokens.'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="model-form" disabled={pending}>
            {pending ? 'Saving…' : editing ? 'Save model' : 'Add model'}
          </Button>
        </>
      }
    >
      <form id="model-form" aria-label={editing ? 'Edit model' : 'Add model'} onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField id="model-id" label="Model id" hint="author/slug, what clients send as model" readOnly={editing} {...set('id')} error={err('id')} autoComplete="off" data-autofocus={editing ? undefined : true} />
          <TextField id="model-name" label="Name" {...set('name')} error={err('name')} data-autofocus={editing ? true : undefined} />
          <TextField id="model-context" label="Context length" inputMode="numeric" {...set('context_length')} error={err('context_length')} />
          <TextField id="model-max-output" label="Max output tokens" inputMode="numeric" {...set('max_output_tokens')} error={err('max_output_tokens')} />
          <SelectField id="model-kind" label="Kind" {...set('kind')} error={err('kind')}>
            <option value="chat">chat</option>
            <option value="embedding">embedding</option>
          </SelectField>
          <TextField id="model-aliases" label="Aliases" hint="Comma-separated, optional" {...set('aliases')} error={err('aliases')} autoComplete="off" />
        </div>
        <TextareaField id="model-description" label="Description" rows={2} {...set('description')} error={err('description')} />
        <fieldset className="grid gap-3 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-medium text-foreground">Supports</legend>
          {FLAGS.map((f) => (
            <CheckboxField key={f.name} id={`model-${f.name}`} label={f.label} checked={flags[f.name]} onChange={(e) => setFlags((x) => ({ ...x, [f.name]: e.target.checked }))} />
          ))}
        </fieldset>

        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-foreground">Endpoints</legend>
          <p className="text-xs text-muted">In order: the first is tried first. The upstream model is the provider’s own id (Azure: the deployment).</p>
          {err('endpoints') && !Object.keys(errors.fields).some((f) => /^endpoints\.\d/.test(f)) ? <p className="text-xs font-medium text-red-700 dark:text-red-300">{err('endpoints')}</p> : null}
          {endpoints.map((e, i) => (
            <div key={e.row} role="group" aria-label={`Endpoint ${i + 1}`} className="grid gap-3 rounded-xl border border-border p-3 sm:grid-cols-2">
              <SelectField id={`endpoint-${e.row}-provider`} label="Provider" value={e.provider} onChange={(ev) => setEndpoint(e.row, { provider: ev.target.value })} error={err(`endpoints.${i}.provider`)}>
                {[...new Set([...providers, e.provider])].filter(Boolean).map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </SelectField>
              <TextField id={`endpoint-${e.row}-upstream`} label="Upstream model" value={e.upstream_model} onChange={(ev) => setEndpoint(e.row, { upstream_model: ev.target.value })} error={err(`endpoints.${i}.upstream_model`)} autoComplete="off" />
              {PRICES.map((p) => (
                <TextField
                  key={p.name}
                  id={`endpoint-${e.row}-${p.name}`}
                  label={p.label}
                  inputMode="decimal"
                  prefix="$"
                  hint={p.required ? undefined : 'Optional'}
                  value={e.prices[p.name]}
                  onChange={(ev) => setPrice(e.row, p.name, ev.target.value)}
                  error={err(`endpoints.${i}.pricing.${p.name}`)}
                />
              ))}
              <TextField id={`endpoint-${e.row}-context`} label="Context length" inputMode="numeric" hint="Optional; the model’s by default" value={e.context_length} onChange={(ev) => setEndpoint(e.row, { context_length: ev.target.value })} error={err(`endpoints.${i}.context_length`)} />
              <TextField id={`endpoint-${e.row}-max-output`} label="Max output tokens" inputMode="numeric" hint="Optional" value={e.max_output_tokens} onChange={(ev) => setEndpoint(e.row, { max_output_tokens: ev.target.value })} error={err(`endpoints.${i}.max_output_tokens`)} />
              {endpoints.length > 1 ? (
                <div className="sm:col-span-2">
                  <Button variant="ghost" size="sm" onClick={() => setEndpoints((es) => es.filter((x) => x.row !== e.row))}>
                    Remove endpoint {i + 1}
                  </Button>
                </div>
              ) : null}
            </div>
          ))}
          <Button variant="secondary" size="sm" onClick={() => setEndpoints((es) => [...es, ...endpointRows(undefined, providers[0] ?? '')])}>
            Add endpoint
          </Button>
        </fieldset>
        {errors.message ? <Notice tone="error">{errors.message}</Notice> : null}
      </form>
    </Dialog>
  );
}
