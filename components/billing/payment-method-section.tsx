'use client';

import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useConsoleSession } from '@/components/console/console-session';
import { errorMessage } from '@/components/console/errors';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { LoadingBlock, ErrorState } from '@/components/console/states';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type MethodQuery = UseQueryResult<RouterOutputs['billing']['paymentMethod'], unknown>;

/** Starts the provider's hosted "save a card" page; the card becomes the default when it returns. */
export function useAddCard() {
  const trpc = useTRPC();
  return useMutation(trpc.billing.setupSession.mutationOptions({ onSuccess: (s) => window.location.assign(s.url) }));
}

export function PaymentMethodSection({ method }: { method: MethodQuery }) {
  const { can } = useConsoleSession();
  const addCard = useAddCard();
  const card = method.data?.data ?? null;
  return (
    <Section id="payment-method" title="Payment method" description="Used for instant purchases, auto top-up and plans.">
      {method.isPending ? (
        <LoadingBlock label="Loading payment method" rows={1} />
      ) : method.isError ? (
        <ErrorState message={errorMessage(method.error)} onRetry={() => method.refetch()} />
      ) : (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          {card ? (
            <div className="flex items-center gap-3">
              <span aria-hidden="true" className="flex h-8 w-12 items-center justify-center rounded-md bg-zinc-900 text-[10px] font-bold tracking-wider text-white uppercase dark:bg-zinc-700">
                {card.brand.slice(0, 4)}
              </span>
              <div>
                <p className="font-medium text-foreground capitalize">
                  {card.brand} •••• {card.last4}
                </p>
                <p className="text-xs text-muted">
                  Expires {String(card.exp_month).padStart(2, '0')}/{card.exp_year}
                </p>
              </div>
            </div>
          ) : (
            <p className="text-sm text-muted">No card saved.</p>
          )}
          {can('billing:manage') ? (
            <Button variant="secondary" onClick={() => addCard.mutate()} disabled={addCard.isPending}>
              {addCard.isPending ? 'Opening…' : card ? 'Replace card' : 'Add a card'}
            </Button>
          ) : null}
        </div>
      )}
      {addCard.error ? <Notice tone="error" className="mt-4">{errorMessage(addCard.error)}</Notice> : null}
    </Section>
  );
}
