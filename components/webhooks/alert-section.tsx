'use client';

// The low-balance alert: below this balance a balance.low event is sent (webhooks) and emailed (owners and
// billing members of an organization; the user of a personal account). An organization setting, or the
// personal account's user setting.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage, readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { Section } from '@/components/console/page-header';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

export function AlertSection() {
  const trpc = useTRPC();
  const { isOrganization, can } = useConsoleSession();
  const org = useQuery({ ...trpc.organization.get.queryOptions(), enabled: isOrganization });
  const profile = useQuery({ ...trpc.account.profile.queryOptions(), enabled: !isOrganization });
  const source = isOrganization ? org : profile;
  return (
    <Section id="alerts" title="Low-balance alert" description="When the balance falls below this amount, a balance.low event is sent to your webhooks and by email.">
      {source.isPending ? (
        <LoadingBlock label="Loading alert" rows={1} />
      ) : source.isError ? (
        <ErrorState message={errorMessage(source.error)} onRetry={() => source.refetch()} />
      ) : (
        <AlertForm current={source.data.settings.low_balance_usd ?? null} editable={!isOrganization || can('org:update')} organization={isOrganization} />
      )}
    </Section>
  );
}

function AlertForm({ current, editable, organization }: { current: number | null; editable: boolean; organization: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [value, setValue] = useState(current === null ? '' : String(current));
  const [error, setError] = useState<string | undefined>();
  const done = (message: string) => {
    toast(message);
    return queryClient.invalidateQueries({ queryKey: organization ? trpc.organization.get.queryKey() : trpc.account.profile.queryKey() });
  };
  const updateOrg = useMutation(trpc.organization.update.mutationOptions());
  const updateUser = useMutation(trpc.account.updateProfile.mutationOptions());
  const pending = updateOrg.isPending || updateUser.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = value.trim();
    const amount = text === '' ? null : Number(text);
    if (amount !== null && !(Number.isFinite(amount) && amount > 0)) return setError('Enter an amount above 0 such as 10, or leave it empty to turn the alert off');
    setError(undefined);
    try {
      const settings = { low_balance_usd: amount };
      if (organization) await updateOrg.mutateAsync({ settings });
      else await updateUser.mutateAsync({ settings });
      await done(amount === null ? 'Low-balance alert turned off' : 'Low-balance alert saved');
    } catch (err) {
      const e = readError(err);
      setError(e.fields['settings.low_balance_usd'] ?? e.message);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <TextField
        id="alert-threshold"
        label="Alert below"
        prefix="$"
        inputMode="decimal"
        placeholder="Off"
        value={value}
        disabled={!editable}
        onChange={(e) => setValue(e.target.value)}
        hint="Leave empty to turn the alert off."
        error={error}
        className="sm:w-64"
      />
      {editable ? (
        <Button type="submit" disabled={pending} className="sm:mt-7">
          {pending ? 'Saving…' : 'Save alert'}
        </Button>
      ) : (
        <p className="text-sm text-muted sm:mt-8">Only owners and admins can change it.</p>
      )}
    </form>
  );
}
