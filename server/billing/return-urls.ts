// Where a checkout sends the buyer back to. Both outcomes land on our own page (app/(billing)/billing/return),
// which completes the purchase from the redirect if the webhook has not arrived yet.

/** Stripe replaces this placeholder in success_url with the session id; the sandbox does the same. */
export const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

export function checkoutReturnUrls(origin: string, paymentId: string) {
  return {
    successUrl: `${origin}/billing/return?session_id=${SESSION_ID_PLACEHOLDER}`,
    cancelUrl: `${origin}/billing/return?payment_id=${encodeURIComponent(paymentId)}&canceled=1`,
  };
}

export function setupReturnUrls(origin: string) {
  return {
    successUrl: `${origin}/billing/return?session_id=${SESSION_ID_PLACEHOLDER}`,
    cancelUrl: `${origin}/billing/return?setup=1&canceled=1`,
  };
}

export function withSessionId(url: string, sessionId: string): string {
  return url.replace(SESSION_ID_PLACEHOLDER, encodeURIComponent(sessionId));
}

/** The console page a checkout started from, with its outcome for components/billing/checkout-outcome.tsx. */
export function checkoutOutcomePath(returnPath: string, o: { checkout: string; credit?: number | null; card?: string | null }): string {
  const url = new URL(returnPath, 'http://local');
  url.searchParams.set('checkout', o.checkout);
  if (o.credit != null) url.searchParams.set('credit', String(o.credit));
  if (o.card) url.searchParams.set('card', o.card);
  return url.pathname + url.search + url.hash;
}
