'use client';

// Auto top-up: when a charge takes the balance below the threshold, buy the amount with the saved card.
// Checked with the server's autoTopUpInput before sending.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage, readError, zodFieldErrors } from '@/components/console/errors';
import { CheckboxField, TextField } from '@/components/console/fields';
import { formatRelative } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { autoTopUpInput } from '@/server/billing/billing-inputs';

type Settings = RouterOutputs['billing']['autoTopUp'];

export function AutoTopUpSection({ hasCard }: { hasCard: boolean }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.billing.autoTopUp.queryOptions());
  return (
    <Section id="auto-top-up" title="Auto top-up" description="Never run dry: refill automatically with the saved card.">
      {settings.isPending ? (
        <LoadingBlock label="Loading auto top-up" rows={2} />
      ) : settings.isError ? (
        <ErrorState message={errorMessage(settings.error)} onRetry={() => settings.refetch()} />
      ) : (
        // Keyed by the saved values: the form starts from them, and again when they change elsewhere.
        <AutoTopUpForm key={`${settings.data.enabled}:${settings.data.threshold}:${settings.data.amount}`} saved={settings.data} hasCard={hasCard} />
      )}
    </Section>
  );
}

function AutoTopUpForm({ saved, hasCard }: { saved: Settings; hasCard: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { can } = useConsoleSession();
  const [enabled, setEnabled] = useState(saved.enabled);
  const [threshold, setThreshold] = useState(String(saved.threshold));
  const [amount, setAmount] = useState(String(saved.amount));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation(
    trpc.billing.updateAutoTopUp.mutationOptions({
      onSuccess: (s) => {
        queryClient.setQueryData(trpc.billing.autoTopUp.queryKey(), s);
        toast(s.enabled ? 'Auto top-up is on' : 'Auto top-up is off');
      },
    }),
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { enabled, threshold: Number(threshold), amount: Number(amount) };
    const local = zodFieldErrors(autoTopUpInput.safeParse(input)) ?? {};
    if (threshold.trim() === '') local.threshold = 'Enter a threshold';
    if (amount.trim() === '') local.amount = 'Enter an amount';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await save.mutateAsync(input);
    } catch (err) {
      setErrors(readError(err).fields);
    }
  }

  const manage = can('billing:manage');
  const failure = save.error ? readError(save.error) : null;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {saved.disabled_reason ? <Notice tone="warning" title="Auto top-up was switched off">{saved.disabled_reason}</Notice> : null}
      <CheckboxField id="auto-enabled" label="Top up automatically" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} disabled={!manage || (!hasCard && !enabled)} description={hasCard ? undefined : 'Add a card first.'} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="auto-threshold" label="When the balance falls below" prefix="$" inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} disabled={!manage} error={errors.threshold} />
        <TextField id="auto-amount" label="Add this much" prefix="$" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} disabled={!manage} error={errors.amount} />
      </div>
      {saved.last_triggered_at ? <p className="text-xs text-muted">Last top-up {formatRelative(saved.last_triggered_at)}.</p> : null}
      {failure && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
      {manage ? (
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save auto top-up'}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
