'use client';

// One allow list of the organization's settings (allowed_models, allowed_providers): "all" or a chosen set.
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { CheckboxField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { Button } from '@/components/ui/button';
import { useUpdateSettings } from './use-update-settings';

export function AllowListSection(p: {
  id: string;
  title: string;
  description: string;
  setting: 'allowed_models' | 'allowed_providers';
  current: string[];
  choices: { id: string; label: string }[];
  loading: boolean;
  editable: boolean;
  noun: string;
}) {
  const [restrict, setRestrict] = useState(p.current.length > 0);
  const [chosen, setChosen] = useState<string[]>(p.current);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSettings(`Allowed ${p.noun}s saved`);
  // Ids saved earlier that this server no longer offers stay visible, so they can be removed.
  const choices = [...p.choices, ...p.current.filter((id) => !p.choices.some((c) => c.id === id)).map((id) => ({ id, label: id }))];
  const dirty = restrict !== p.current.length > 0 || (restrict && [...chosen].sort().join() !== [...p.current].sort().join());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (restrict && chosen.length === 0) return setError(`Choose at least one ${p.noun}, or allow every ${p.noun}`);
    setError(null);
    try {
      await update.mutateAsync({ settings: { [p.setting]: restrict ? chosen : [] } });
    } catch (err) {
      const e = readError(err);
      setError(e.fields[`settings.${p.setting}`] ?? e.message);
    }
  }

  return (
    <Section id={p.id} title={p.title} description={p.description} actions={<StatusBadge tone={p.current.length ? 'warning' : 'neutral'}>{p.current.length ? `${p.current.length} allowed` : `All ${p.noun}s`}</StatusBadge>}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <CheckboxField
          id={`${p.id}-restrict`}
          label={`Only allow specific ${p.noun}s`}
          checked={restrict}
          disabled={!p.editable}
          onChange={(e) => setRestrict(e.target.checked)}
        />
        {restrict ? (
          <fieldset className="sm:ml-7">
            <legend className="sr-only">{`${p.title}`}</legend>
            <div className="grid max-h-64 gap-2 overflow-y-auto rounded-lg border border-border p-3 sm:grid-cols-2">
              {p.loading ? <p className="text-sm text-muted">Loading…</p> : null}
              {choices.map((c) => (
                <CheckboxField
                  key={c.id}
                  id={`${p.id}-${c.id}`}
                  label={<span className="font-mono text-xs break-all">{c.id}</span>}
                  checked={chosen.includes(c.id)}
                  disabled={!p.editable}
                  onChange={(e) => setChosen((list) => (e.target.checked ? [...list, c.id] : list.filter((x) => x !== c.id)))}
                />
              ))}
            </div>
          </fieldset>
        ) : null}
        {error ? <Notice tone="error">{error}</Notice> : null}
        {p.editable ? (
          <div className="flex justify-end">
            <Button type="submit" disabled={!dirty || update.isPending}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted">Only owners and admins can change the policy.</p>
        )}
      </form>
    </Section>
  );
}
