// A checkout session's outcome, applied once whatever told us about it: Stripe's webhooks
// (checkout.session.completed / async_payment_succeeded / async_payment_failed / expired), the buyer's
// success redirect (which retrieves the session from the provider), a status poll, or the sandbox page.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { paymentProvider, type CheckoutState, type ProviderName } from './payment-provider';
import { getDefaultPaymentMethod, savePaymentMethod } from './payment-methods';
import { markPaymentFailed, markPaymentSucceeded, notePendingPayment } from './settle-payment';

/** Failure reasons of a checkout that ended unpaid: abandoned (hidden from history, list-payments.ts) or cancelled by the buyer. */
export const CHECKOUT_EXPIRED = 'checkout session expired';
export const CHECKOUT_CANCELLED = 'checkout cancelled';

export interface FulfilOptions {
  provider: ProviderName;
  providerEventId?: string | null;
  /** The provider says the delayed payment failed (checkout.session.async_payment_failed). */
  failedReason?: string;
}

export async function fulfilCheckout(s: CheckoutState, o: FulfilOptions): Promise<void> {
  if (s.mode === 'setup') {
    if (s.status === 'complete' && s.card && s.accountId) await savePaymentMethod({ accountId: s.accountId, provider: o.provider, card: s.card });
    return;
  }
  const prisma = await db();
  const payment = await prisma.payment.findFirst({
    where: s.paymentId ? { id: s.paymentId } : { providerCheckoutId: s.id },
    select: { id: true, providerCheckoutId: true, provider: true, accountId: true, saveCard: true },
  });
  // Not ours, or metadata pointing at a payment of another session: nothing to do.
  if (!payment || payment.provider !== o.provider || (payment.providerCheckoutId && payment.providerCheckoutId !== s.id)) return;
  const ref = { paymentId: payment.id };
  const common = { ref, providerPaymentId: s.providerPaymentId, providerEventId: o.providerEventId ?? null };
  if (o.failedReason) await markPaymentFailed({ ...common, reason: o.failedReason });
  else if (s.paymentStatus === 'paid' || s.paymentStatus === 'no_payment_required') {
    await markPaymentSucceeded({ ...common, reason: 'checkout paid' });
    // Kept only with the buyer's consent (save_card), and for the account that paid.
    if (payment.saveCard && s.card) await savePaymentMethod({ accountId: payment.accountId, provider: o.provider, card: s.card });
  } else if (s.status === 'expired') await markPaymentFailed({ ...common, reason: CHECKOUT_EXPIRED, status: 'CANCELED' });
  else if (s.status === 'complete') await notePendingPayment({ ...common, reason: 'checkout complete; awaiting the delayed payment' });
}

export interface CheckoutReturn {
  mode: 'payment' | 'setup';
  /** payment: pending | succeeded | failed | canceled …; setup: saved | open | expired */
  status: string;
  payment_id: string | null;
  amount: number | null;
  credit: number | null;
  /** The card saved by this checkout (setup mode, or a payment with save_card). */
  card: { brand: string; last4: string } | null;
  /** The console page the checkout was started from (return_to), if any. */
  return_path: string | null;
}

/**
 * The buyer came back from checkout (success URL). Asks the provider for the session and applies it through
 * the same code as the webhook, so the credit is there even when the webhook is late or lost.
 */
export async function completeCheckoutFromRedirect(p: { sessionId: string }): Promise<CheckoutReturn> {
  const provider = await paymentProvider();
  const s = await provider.retrieveCheckoutSession(p.sessionId);
  if (!s) throw new AppError('not_found', 'Checkout session not found');
  await fulfilCheckout(s, { provider: provider.name });
  if (s.mode === 'setup') {
    return { mode: 'setup', status: s.status === 'complete' ? 'saved' : s.status, payment_id: null, amount: null, credit: null, card: s.card ? { brand: s.card.brand, last4: s.card.last4 } : null, return_path: null };
  }
  const prisma = await db();
  const payment = await prisma.payment.findFirst({
    where: s.paymentId ? { id: s.paymentId } : { providerCheckoutId: s.id },
    select: { id: true, accountId: true, status: true, amountCents: true, creditMicros: true, saveCard: true, returnPath: true },
  });
  if (!payment) throw new AppError('not_found', 'Payment not found');
  // The card this checkout kept: Stripe's session names it; the sandbox's does not, but fulfilment just made it
  // the account's default.
  const kept = payment.saveCard && payment.status === 'SUCCEEDED' ? (s.card ?? (await getDefaultPaymentMethod({ accountId: payment.accountId }))) : null;
  const card = kept ? { brand: kept.brand, last4: kept.last4 } : null;
  return { mode: 'payment', status: payment.status.toLowerCase(), payment_id: payment.id, amount: payment.amountCents / 100, credit: Number(payment.creditMicros) / 1e6, card, return_path: payment.returnPath };
}

/** A pending checkout payment asks its provider whether it was paid (status polling, success page). */
export async function refreshCheckoutPayment(p: { paymentId: string }): Promise<void> {
  const prisma = await db();
  const payment = await prisma.payment.findUnique({ where: { id: p.paymentId }, select: { status: true, kind: true, provider: true, providerCheckoutId: true } });
  if (!payment || payment.status !== 'PENDING' || payment.kind !== 'CHECKOUT' || !payment.providerCheckoutId) return;
  const provider = await paymentProvider();
  if (provider.name !== payment.provider) return;
  const s = await provider.retrieveCheckoutSession(payment.providerCheckoutId);
  if (s) await fulfilCheckout(s, { provider: provider.name });
}
