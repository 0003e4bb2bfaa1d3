'use client';

// Organization settings: name, URL name (slug, checked with the server's slugSchema before sending) and
// the default model first-party clients preselect. Read-only for roles without org:update.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { readError } from '@/components/console/errors';
import { SelectField, TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { slugSchema } from '@/server/organizations/organization-dto';

type Organization = RouterOutputs['organization']['get'];

export function SettingsSection({ organization }: { organization: Organization }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { can } = useConsoleSession();
  const models = useQuery(trpc.models.list.queryOptions());
  const [name, setName] = useState(organization.name);
  const [slug, setSlug] = useState(organization.slug);
  const [defaultModel, setDefaultModel] = useState(organization.settings.default_model ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const editable = can('org:update');
  const update = useMutation(
    trpc.organization.update.mutationOptions({
      onSuccess: (o) => {
        queryClient.setQueryData(trpc.organization.get.queryKey(), o);
        void queryClient.invalidateQueries({ queryKey: trpc.account.session.queryKey() });
        toast('Settings saved');
      },
    }),
  );
  const failure = update.error ? readError(update.error) : null;
  const dirty = name !== organization.name || slug !== organization.slug || defaultModel !== (organization.settings.default_model ?? '');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Name must not be empty';
    const parsedSlug = slugSchema.safeParse(slug);
    if (!parsedSlug.success) local.slug = parsedSlug.error.issues[0]?.message ?? 'Invalid slug';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await update.mutateAsync({ name, slug, settings: { default_model: defaultModel || null } });
    } catch (err) {
      setErrors(readError(err).fields);
    }
  }

  return (
    <Section id="settings" title="Settings" description={editable ? undefined : 'Owners and admins can change these.'}>
      <form onSubmit={submit} noValidate className="grid gap-4 md:grid-cols-3">
        <TextField id="org-settings-name" label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} disabled={!editable} error={errors.name} />
        <TextField id="org-settings-slug" label="URL name" value={slug} onChange={(e) => setSlug(e.target.value)} maxLength={48} disabled={!editable} error={errors.slug} />
        <SelectField id="org-settings-model" label="Default model" value={defaultModel} onChange={(e) => setDefaultModel(e.target.value)} disabled={!editable} hint="Preselected by the CLI and editors." error={errors['settings.default_model']}>
          <option value="">None</option>
          {(models.data ?? []).map((m) => (
            <option key={m.id} value={m.id}>
              {m.id}
            </option>
          ))}
        </SelectField>
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error" className="md:col-span-3">{failure.message}</Notice> : null}
        {editable ? (
          <div className="flex justify-end md:col-span-3">
            <Button type="submit" disabled={!dirty || update.isPending}>
              {update.isPending ? 'Saving…' : 'Save settings'}
            </Button>
          </div>
        ) : null}
      </form>
    </Section>
  );
}
