// Where a checkout (Stripe's or the sandbox's) sends the buyer back. On success it asks the provider for
// the session and applies it through the same code as the webhook, so the credit is there at once even
// if the webhook is late.
import type { Metadata } from 'next';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { completeCheckoutFromRedirect, type CheckoutReturn } from '@/server/billing/fulfil-checkout';

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
      return { title: 'Payment received', body: `${amount} of credit was added to your balance.` };
    case 'pending':
      return { title: 'Payment processing', body: `Your payment is being processed. ${amount} of credit is added as soon as it clears.` };
    case 'canceled':
      return { title: 'Checkout canceled', body: 'Nothing was charged.' };
    default:
      return { title: 'Payment not completed', body: 'The payment did not go through, and nothing was added to your balance.' };
  }
}

export default async function CheckoutReturnPage({ searchParams }: { searchParams: Query }) {
  const q = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const sessionId = one(q.session_id);
  let view: { title: string; body: string };
  if (one(q.canceled)) view = { title: 'Checkout canceled', body: 'Nothing was charged. You can start again at any time.' };
  else if (!sessionId) view = { title: 'Nothing to show', body: 'This page is where a checkout returns to.' };
  else {
    const result = await completeCheckoutFromRedirect({ sessionId }).catch(() => null);
    view = result ? describe(result) : { title: 'Checkout not found', body: 'We could not find this checkout session.' };
  }
  return (
    <Card className="w-full max-w-md">
      <h1 className="text-xl font-semibold tracking-tight text-foreground">{view.title}</h1>
      <p className="mt-3 text-sm leading-6 text-muted">{view.body}</p>
      <div className="mt-6">
        <ButtonLink href="/" variant="secondary">
          Back to Switchboard
        </ButtonLink>
      </div>
    </Card>
  );
}
