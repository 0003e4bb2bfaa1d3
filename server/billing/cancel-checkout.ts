// The buyer cancelled a hosted checkout (its cancel URL brought them back): the session is ended at the
// provider so it can no longer be paid, and the payment becomes CANCELED with the reason "checkout
// cancelled" — shown as cancelled in the history, unlike an abandoned one that simply expired
// (list-payments.ts hides those). Only the user who started the checkout may cancel it.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { CHECKOUT_CANCELLED, fulfilCheckout } from './fulfil-checkout';
import { paymentProvider } from './payment-provider';
import { markPaymentFailed } from './settle-payment';

export interface CancelledCheckout {
  payment_id: string;
  /** The payment's status afterwards: canceled, or succeeded when it was paid before the cancel arrived. */
  status: string;
  return_path: string | null;
}

export async function cancelCheckout(p: { paymentId: string; userId: string }): Promise<CancelledCheckout> {
  const prisma = await db();
  const find = () =>
    prisma.payment.findUnique({ where: { id: p.paymentId }, select: { id: true, kind: true, status: true, userId: true, provider: true, providerCheckoutId: true, returnPath: true } });
  const payment = await find();
  if (!payment || payment.kind !== 'CHECKOUT' || payment.userId !== p.userId) throw new AppError('not_found', 'Checkout not found');
  if (payment.status === 'PENDING') {
    const provider = await paymentProvider();
    const session = payment.providerCheckoutId && provider.name === payment.provider ? await provider.expireCheckoutSession(payment.providerCheckoutId) : null;
    // Paid in another tab just before, or completed with a payment still clearing (a bank debit): that outcome stands.
    if (session && (session.paymentStatus === 'paid' || session.status === 'complete')) await fulfilCheckout(session, { provider: provider.name });
    else await markPaymentFailed({ ref: { paymentId: payment.id }, reason: CHECKOUT_CANCELLED, status: 'CANCELED' });
  }
  const after = (await find())!;
  return { payment_id: after.id, status: after.status.toLowerCase(), return_path: after.returnPath };
}
