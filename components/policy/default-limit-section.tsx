'use client';

// The spend limit members get when they join (settings default_member_limit_usd / _reset); existing members
// keep theirs (set below, one by one).
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { Button } from '@/components/ui/button';
import { LimitFields, parseAmount, resetOf, type Reset } from './limit-fields';
import { useUpdateSettings } from './use-update-settings';

export function DefaultLimitSection({ amount, reset, editable }: { amount: number | null; reset: 'daily' | 'weekly' | 'monthly' | null; editable: boolean }) {
  const [value, setValue] = useState(amount === null ? '' : String(amount));
  const [windowReset, setWindowReset] = useState<Reset>(reset ?? 'monthly');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateSettings('Default member limit saved');
  const failure = update.error ? readError(update.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseAmount(value);
    if ('error' in parsed) return setErrors({ amount: parsed.error });
    setErrors({});
    try {
      await update.mutateAsync({
        settings: { default_member_limit_usd: parsed.value, default_member_limit_reset: parsed.value === null ? null : resetOf(windowReset) },
      });
    } catch (err) {
      const e = readError(err);
      setErrors({ amount: e.fields['settings.default_member_limit_usd'] ?? '', reset: e.fields['settings.default_member_limit_reset'] ?? '' });
    }
  }

  return (
    <Section id="default-limit" title="Default member limit" description="What a member who joins from now on may spend. Members who joined earlier keep their own limit.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <LimitFields idPrefix="default-limit" amountLabel="Limit per member" amount={value} reset={windowReset} onAmount={setValue} onReset={setWindowReset} disabled={!editable} errors={errors} />
        {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        {editable ? (
          <div className="flex justify-end">
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving…' : 'Save default'}
            </Button>
          </div>
        ) : null}
      </form>
    </Section>
  );
}
