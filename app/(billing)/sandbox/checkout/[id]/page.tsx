// The sandbox's checkout page: what Stripe Checkout is with Stripe configured, for the embedded quick
// start. Plainly marked as a sandbox; the form posts to ./submit, which applies the outcome through the
// same fulfilment code as Stripe's webhooks. Works without JavaScript.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { getSandboxCheckout, SANDBOX_ERRORS, type SandboxErrorCode } from '@/server/billing/sandbox/sandbox-checkout';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sandbox checkout', robots: { index: false, follow: false } };

const TEST_CARDS = [
  ['4242 4242 4242 4242', 'succeeds'],
  ['4000 0000 0000 0002', 'is declined'],
  ['4000 0000 0000 9995', 'is declined (insufficient funds)'],
  ['4000 0000 0000 0341', 'saves, then every off-session charge is declined'],
  ['4000 0025 0000 3155', 'needs 3-D Secure: refused off-session'],
] as const;

const input =
  'mt-1 block w-full rounded-lg border border-border-strong bg-surface-raised px-3 py-2 text-sm text-foreground shadow-xs ' +
  'placeholder:text-muted focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring';

export default async function SandboxCheckoutPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ error?: string }> }) {
  const { id } = await params;
  const { error } = await searchParams;
  const view = await getSandboxCheckout({ sessionId: id });
  if (!view) notFound();
  const message = error && error in SANDBOX_ERRORS ? SANDBOX_ERRORS[error as SandboxErrorCode] : null;
  const title = view.mode === 'payment' ? `Buy $${view.amount?.toFixed(2)} of credits` : 'Save a card for later payments';

  return (
    <div className="w-full max-w-md">
      <p role="note" className="mb-4 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        <strong className="font-semibold">Sandbox checkout.</strong> This server has no payment provider configured, so no real money moves:
        {view.mode === 'payment' ? ' confirming adds credit for free.' : ' the card is saved, and nothing is charged or credited now.'} Use a test card below.
      </p>
      <Card>
        <h1 className="text-xl font-semibold tracking-tight text-foreground">{title}</h1>
        {view.state !== 'open' ? (
          <p className="mt-3 text-sm text-muted">
            {view.state === 'complete' ? 'This checkout is already complete.' : 'This checkout session has expired or was cancelled. Start a new one.'}
          </p>
        ) : (
          <form method="post" action={`/sandbox/checkout/${encodeURIComponent(view.id)}/submit`} className="mt-5 space-y-4">
            <label className="block text-sm font-medium text-foreground">
              Card number
              <input name="card_number" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required className={input} />
            </label>
            <div className="grid grid-cols-2 gap-3">
              <label className="block text-sm font-medium text-foreground">
                Expiry
                <input name="expiry" autoComplete="cc-exp" placeholder="MM / YY" required className={input} />
              </label>
              <label className="block text-sm font-medium text-foreground">
                CVC
                <input name="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required className={input} />
              </label>
            </div>
            {view.mode === 'payment' && view.saveCard ? (
              // What Stripe Checkout says with setup_future_usage=off_session: the consent given in the console, restated.
              <p className="text-xs leading-5 text-muted">
                Your card will be saved for future purchases and auto top-up on Switchboard. You can remove it in Billing at any time.
              </p>
            ) : null}
            {message ? (
              <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
                {message}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-3 pt-1">
              <button type="submit" name="action" value="pay" className={buttonClasses({ size: 'md' })}>
                {view.mode === 'payment' ? `Pay $${view.amount?.toFixed(2)}` : 'Save card'}
              </button>
              <button type="submit" name="action" value="cancel" formNoValidate className={buttonClasses({ variant: 'secondary', size: 'md' })}>
                Cancel
              </button>
            </div>
          </form>
        )}
        <details className="mt-6 text-sm text-muted">
          <summary className="cursor-pointer font-medium text-foreground">Test cards</summary>
          <ul className="mt-2 space-y-1">
            {TEST_CARDS.map(([number, outcome]) => (
              <li key={number}>
                <code className="font-mono text-foreground">{number}</code> {outcome}
              </li>
            ))}
            <li>Any future expiry date and any 3-digit CVC.</li>
          </ul>
        </details>
      </Card>
    </div>
  );
}
