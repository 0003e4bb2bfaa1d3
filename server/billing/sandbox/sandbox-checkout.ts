// The sandbox checkout page's two services: what the page shows, and what its form does. A confirmed
// payment is applied through fulfilCheckout, exactly as Stripe's checkout.session.completed webhook is.
import { randomBytes } from 'node:crypto';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { CHECKOUT_CANCELLED, fulfilCheckout } from '../fulfil-checkout';
import { markPaymentFailed } from '../settle-payment';
import { paymentProvider, type CheckoutState } from '../payment-provider';
import { checkoutReturnUrls, setupReturnUrls, withSessionId } from '../return-urls';
import { checkEnteredCard, parseExpiry } from './sandbox-cards';
import { sandboxProvider, setupMethodId, SANDBOX_PAYMENT_SESSION_PREFIX } from './sandbox-provider';

export interface SandboxCheckoutView {
  id: string;
  mode: 'payment' | 'setup';
  state: 'open' | 'complete' | 'expired';
  /** USD; null in setup mode. */
  amount: number | null;
  paymentId: string | null;
  /** Payment mode: the buyer agreed to keep the card (the page says it will be saved). */
  saveCard: boolean;
}

/** The session behind a sandbox page; null when there is none (or Stripe is configured: no sandbox then). */
export async function getSandboxCheckout(p: { sessionId: string }): Promise<SandboxCheckoutView | null> {
  if (!p.sessionId.startsWith(SANDBOX_PAYMENT_SESSION_PREFIX)) return null;
  const provider = await paymentProvider().catch(() => null);
  if (provider?.name !== 'SANDBOX') return null;
  let s = await sandboxProvider.retrieveCheckoutSession(p.sessionId);
  if (!s) return null;
  if (s.mode === 'payment' && s.status === 'expired') {
    await fulfilCheckout(s, { provider: 'SANDBOX' }); // an abandoned payment becomes CANCELED
    s = (await sandboxProvider.retrieveCheckoutSession(p.sessionId))!;
  }
  let amount: number | null = null;
  let saveCard = false;
  if (s.paymentId) {
    const payment = await (await db()).payment.findUnique({ where: { id: s.paymentId }, select: { amountCents: true, saveCard: true } });
    amount = payment ? payment.amountCents / 100 : null;
    saveCard = payment?.saveCard ?? false;
  }
  return { id: s.id, mode: s.mode, state: s.status, amount, paymentId: s.paymentId, saveCard };
}

export interface SandboxSubmission {
  sessionId: string;
  action: 'pay' | 'cancel';
  cardNumber: string;
  expiry: string;
  cvc: string;
  origin: string;
}

/** What the page may say when a submission fails (codes travel in the URL, never free text). */
export const SANDBOX_ERRORS = {
  invalid_number: 'Your card number is invalid.',
  generic_decline: 'Your card was declined. Try 4242 4242 4242 4242.',
  insufficient_funds: 'Your card has insufficient funds.',
  invalid_expiry: 'Your card’s expiration date is invalid or in the past (MM / YY).',
  invalid_cvc: 'Your card’s security code is invalid.',
  expired: 'This checkout session has expired. Start a new one.',
} as const;
export type SandboxErrorCode = keyof typeof SANDBOX_ERRORS;

/** Where to send the browser next, or the error to show on the page. */
export type SandboxResult = { redirect: string } | { error: SandboxErrorCode };

export async function submitSandboxCheckout(p: SandboxSubmission): Promise<SandboxResult> {
  const view = await getSandboxCheckout({ sessionId: p.sessionId });
  if (!view) throw new AppError('not_found', 'Checkout session not found');
  const urls = view.mode === 'payment' ? checkoutReturnUrls(p.origin, view.paymentId!) : setupReturnUrls(p.origin);
  const success = withSessionId(urls.successUrl, view.id);
  if (view.state === 'complete') return { redirect: success };
  if (view.state === 'expired') return { error: 'expired' };

  if (p.action === 'cancel') {
    // The buyer said no (not an abandoned session): the history shows it as cancelled.
    if (view.mode === 'payment') await markPaymentFailed({ ref: { paymentId: view.paymentId! }, reason: CHECKOUT_CANCELLED, status: 'CANCELED', providerEventId: sandboxEventId() });
    return { redirect: urls.cancelUrl };
  }

  const card = checkEnteredCard(p.cardNumber);
  if (!card.ok) return { error: card.code === 'invalid_number' ? 'invalid_number' : card.declineCode === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline' };
  const expiry = parseExpiry(p.expiry);
  if (!expiry) return { error: 'invalid_expiry' };
  if (!/^\d{3,4}$/.test(p.cvc.trim())) return { error: 'invalid_cvc' };

  const base = (await sandboxProvider.retrieveCheckoutSession(view.id))!;
  const completed: CheckoutState =
    view.mode === 'setup'
      ? { ...base, status: 'complete', card: { providerId: setupMethodId(view.id), brand: card.brand, last4: card.last4, expMonth: expiry.month, expYear: expiry.year } }
      : {
          ...base, status: 'complete', paymentStatus: 'paid', providerPaymentId: `pi_sandbox_${randomBytes(12).toString('hex')}`,
          // Kept only when the buyer agreed (fulfilCheckout checks the payment's save_card).
          card: view.saveCard ? { providerId: `pm_sandbox_${randomBytes(12).toString('hex')}`, brand: card.brand, last4: card.last4, expMonth: expiry.month, expYear: expiry.year } : null,
        };
  await fulfilCheckout(completed, { provider: 'SANDBOX', providerEventId: sandboxEventId() });
  return { redirect: success };
}

const sandboxEventId = () => `evt_sandbox_${randomBytes(12).toString('hex')}`;
