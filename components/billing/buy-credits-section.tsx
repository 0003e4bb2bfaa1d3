'use client';

// Buy credits: a preset or custom amount (checked with the server's own checkoutInput schema), through
// the hosted checkout (Stripe's, or the sandbox's page on a server without Stripe), or at once with the
// saved card. One idempotency key per attempt, so a double click is one charge. The checkout keeps the card
// only when the buyer ticks the consent box, and brings them back to the console page they came from
// (?from=, e.g. the key dialog's "Buy credits"), where auto top-up is offered (checkout-outcome.tsx).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { readError, zodFieldErrors } from '@/components/console/errors';
import { CheckboxField, TextField } from '@/components/console/fields';
import { formatUsd } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { safeCallbackUrl } from '@/server/auth/callback-url';
import { checkoutInput, MIN_PURCHASE_USD } from '@/server/billing/billing-inputs';

const PRESETS = [10, 25, 50, 100];

export function BuyCreditsSection({ card }: { card: RouterOutputs['billing']['paymentMethod']['data'] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [amount, setAmount] = useState('25');
  const [error, setError] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());
  const [saveCard, setSaveCard] = useState(false);
  const pathname = usePathname();
  const from = useSearchParams().get('from');
  const returnTo = safeCallbackUrl(from, pathname);
  const checkout = useMutation(trpc.billing.checkout.mutationOptions());
  const purchase = useMutation(trpc.billing.purchase.mutationOptions());
  const failure = checkout.error ?? purchase.error;

  function parsed(): number | null {
    const result = checkoutInput.safeParse({ amount: Number(amount) });
    const errors = zodFieldErrors(result);
    setError(amount.trim() === '' ? 'Enter an amount' : errors?.amount);
    return result.success && amount.trim() !== '' ? result.data.amount : null;
  }

  async function toCheckout(event: FormEvent) {
    event.preventDefault();
    const value = parsed();
    if (value === null) return;
    try {
      const session = await checkout.mutateAsync({ amount: value, save_card: saveCard, return_to: returnTo });
      window.location.assign(session.url);
    } catch (err) {
      setError(readError(err).fields.amount);
    }
  }

  async function buyNow() {
    const value = parsed();
    if (value === null) return;
    try {
      const r = await purchase.mutateAsync({ amount: value, idempotency_key: attempt });
      setAttempt(crypto.randomUUID());
      toast(`${formatUsd(r.payment.credit)} added. Balance: ${formatUsd(r.balance.balance)}`);
      void queryClient.invalidateQueries({ queryKey: trpc.billing.pathKey() });
    } catch {
      // Shown below.
    }
  }

  return (
    <Section id="buy-credits" title="Buy credits" description={`From ${formatUsd(MIN_PURCHASE_USD)}. Credit never expires.`}>
      <form onSubmit={toCheckout} noValidate className="space-y-5">
        <div role="group" aria-label="Amount presets" className="flex flex-wrap gap-2">
          {PRESETS.map((p) => (
            <button
              key={p}
              type="button"
              aria-pressed={Number(amount) === p}
              onClick={() => {
                setAmount(String(p));
                setError(undefined);
              }}
              className={cx(
                'h-10 min-w-20 rounded-lg border px-4 text-sm font-semibold tabular-nums',
                Number(amount) === p ? 'border-accent bg-accent-soft text-accent-text' : 'border-border-strong bg-surface-raised text-foreground hover:bg-surface',
              )}
            >
              ${p}
            </button>
          ))}
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <TextField id="credit-amount" label="Amount (USD)" prefix="$" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} error={error} className="sm:w-48" />
          <div className="flex flex-wrap gap-2 sm:mt-7">
            <Button type="submit" disabled={checkout.isPending}>
              {checkout.isPending ? 'Opening checkout…' : 'Continue to checkout'}
            </Button>
            {card ? (
              <Button variant="secondary" onClick={buyNow} disabled={purchase.isPending}>
                {purchase.isPending ? 'Charging…' : `Buy now with ${card.brand} •••• ${card.last4}`}
              </Button>
            ) : null}
          </div>
        </div>
        <CheckboxField
          id="save-card"
          checked={saveCard}
          onChange={(e) => setSaveCard(e.target.checked)}
          label="Save this card for future purchases and auto top-up"
          description={card ? `It replaces ${card.brand} •••• ${card.last4} as the default card.` : 'Charged only when you buy with it or turn on auto top-up. Remove it in Billing at any time.'}
        />
        {failure && !readError(failure).fields.amount ? <Notice tone="error">{readError(failure).message}</Notice> : null}
      </form>
    </Section>
  );
}
