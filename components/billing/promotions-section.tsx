'use client';

// Promotional credit: active grants and redeeming a code for the active account.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage, readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDate, formatUsd } from '@/components/console/format';
import { Section } from '@/components/console/page-header';
import { EmptyState, ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

export function PromotionsSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const { can } = useConsoleSession();
  const grants = useQuery(trpc.promotions.list.queryOptions());
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const redeem = useMutation(trpc.promotions.redeem.mutationOptions());

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return setError('Enter a code');
    setError(undefined);
    try {
      const grant = await redeem.mutateAsync({ code });
      toast(`${formatUsd(grant.amount)} of promotional credit added`);
      setCode('');
      void queryClient.invalidateQueries({ queryKey: trpc.promotions.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.billing.balance.queryKey() });
    } catch (err) {
      const e = readError(err);
      setError(e.fields.code ?? e.message);
    }
  }

  return (
    <Section id="promotions" title="Promotions" description="Promotional credit is spent before paid credit, soonest-expiring first.">
      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        {can('billing:manage') ? (
          <form onSubmit={submit} noValidate className="flex items-start gap-2">
            <TextField id="promo-code" label="Promotion code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="Enter a code" autoCapitalize="characters" maxLength={64} error={error} className="flex-1" />
            <Button type="submit" variant="secondary" className="mt-7" disabled={redeem.isPending}>
              {redeem.isPending ? 'Redeeming…' : 'Redeem'}
            </Button>
          </form>
        ) : (
          <p className="text-sm text-muted">Owners and billing managers can redeem codes.</p>
        )}
        <div>
          {grants.isPending ? (
            <LoadingBlock label="Loading promotions" rows={2} />
          ) : grants.isError ? (
            <ErrorState message={errorMessage(grants.error)} onRetry={() => grants.refetch()} />
          ) : grants.data.length === 0 ? (
            <EmptyState title="No active promotional credit" className="py-6" />
          ) : (
            <ul className="divide-y divide-border rounded-xl border border-border">
              {grants.data.map((g) => (
                <li key={g.id} className="flex items-center justify-between gap-4 px-4 py-3 text-sm">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-foreground">
                      {g.name} {g.code ? <code className="ml-1 font-mono text-xs text-muted">{g.code}</code> : null}
                    </p>
                    <p className="text-xs text-muted">{g.expires_at ? `Expires ${formatDate(g.expires_at)}` : 'Does not expire'}</p>
                  </div>
                  <p className="shrink-0 text-right tabular-nums">
                    <span className="font-semibold text-foreground">{formatUsd(g.remaining)}</span>
                    <span className="text-xs text-muted"> of {formatUsd(g.amount)}</span>
                  </p>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Section>
  );
}
