// Where a checkout (Stripe's or the sandbox's) sends the buyer back. On success it asks the provider for
// the session and applies it through the same code as the webhook, so the credit is there at once even
// if the webhook is late. A cancel ends the session (cancel-checkout.ts). A checkout started in the console
// (return_to) then sends the buyer back to that console page with the outcome in the query
// (components/billing/checkout-outcome.tsx says it there); one made through the API shows it here.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CONSOLE_HOME } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { cancelCheckout } from '@/server/billing/cancel-checkout';
import { completeCheckoutFromRedirect, type CheckoutReturn } from '@/server/billing/fulfil-checkout';
import { checkoutOutcomePath } from '@/server/billing/return-urls';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Checkout', robots: { index: false, follow: false } };

type Query = Promise<Record<string, string | string[] | undefined>>;

function describe(r: CheckoutReturn): { title: string; body: string } {
  if (r.mode === 'setup') {
    return r.status === 'saved' && r.card
      ? { title: 'Card saved', body: `${r.card.brand} •••• ${r.card.last4} is now your default payment method, used for direct purchases, auto top-up and plans.` }
      : { title: 'Card not saved yet', body: 'The card setup has not been completed.' };
  }
  const amount = `$${(r.credit ?? 0).toFixed(2)}`;
  switch (r.status) {
    case 'succeeded':
      return { title: 'Payment received', body: `${amount} of credit was added to your balance.${r.card ? ` ${r.card.brand} •••• ${r.card.last4} is saved for next time.` : ''}` };
    case 'pending':
      return { title: 'Payment processing', body: `Your payment is being processed. ${amount} of credit is added as soon as it clears.` };
    case 'canceled':
      return { title: 'Checkout cancelled', body: 'Nothing was charged.' };
    default:
      return { title: 'Payment not completed', body: 'The payment did not go through, and nothing was added to your balance.' };
  }
}

const CANCELLED = { title: 'Checkout cancelled', body: 'Nothing was charged. You can start again at any time.' };

export default async function CheckoutReturnPage({ searchParams }: { searchParams: Query }) {
  const q = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const sessionId = one(q.session_id);
  const paymentId = one(q.payment_id);
  let view: { title: string; body: string };
  let back: string | null = null;
  if (one(q.canceled)) {
    view = CANCELLED;
    const user = paymentId ? await currentUser() : null;
    const cancelled = user && paymentId ? await cancelCheckout({ paymentId, userId: user.id }).catch(() => null) : null;
    if (cancelled?.return_path) back = checkoutOutcomePath(cancelled.return_path, { checkout: cancelled.status === 'canceled' ? 'cancelled' : cancelled.status });
    else if (cancelled && cancelled.status !== 'canceled') view = { title: 'Payment received', body: 'The checkout was paid before it was cancelled.' };
  } else if (!sessionId) view = { title: 'Nothing to show', body: 'This page is where a checkout returns to.' };
  else {
    const result = await completeCheckoutFromRedirect({ sessionId }).catch(() => null);
    view = result ? describe(result) : { title: 'Checkout not found', body: 'We could not find this checkout session.' };
    if (result?.return_path) {
      back = checkoutOutcomePath(result.return_path, { checkout: result.status, credit: result.credit, card: result.card ? `${result.card.brand} •••• ${result.card.last4}` : null });
    }
  }
  // redirect() throws: outside the try-free branches above on purpose.
  if (back) redirect(back);
  return (
    <Card className="w-full max-w-md">
      <h1 className="text-xl font-semibold tracking-tight text-foreground">{view.title}</h1>
      <p className="mt-3 text-sm leading-6 text-muted">{view.body}</p>
      <div className="mt-6">
        <ButtonLink href={CONSOLE_HOME} variant="secondary">
          Back to the console
        </ButtonLink>
      </div>
    </Card>
  );
}
