// An off-session charge of the saved card for a PENDING payment (direct purchases and auto top-ups), with
// the outcome applied through the same fulfilment code as the provider's webhooks. The provider call
// carries the payment's idempotency key: a retry (or a concurrent duplicate) yields the same charge.
import type { ChargeOutcome, PaymentProvider } from './payment-provider';
import { ensureCustomer } from './ensure-customer';
import { markPaymentFailed, markPaymentSucceeded, notePendingPayment } from './settle-payment';

export function describeChargeFailure(o: Extract<ChargeOutcome, { status: 'failed' }>): string {
  if (o.requiresAction) return 'the card requires authentication (3-D Secure), which cannot be done off-session';
  return `${o.message}${o.declineCode ? ` (${o.declineCode})` : o.code ? ` (${o.code})` : ''}`;
}

export async function chargeSavedCard(p: {
  provider: PaymentProvider;
  paymentId: string;
  accountId: string;
  amountCents: number;
  paymentMethodProviderId: string;
  description: string;
  idempotencyKey: string;
}): Promise<ChargeOutcome> {
  const customerId = await ensureCustomer(p.provider, p.accountId);
  const outcome = await p.provider.chargeOffSession({
    paymentId: p.paymentId,
    accountId: p.accountId,
    customerId,
    paymentMethodId: p.paymentMethodProviderId,
    amountCents: p.amountCents,
    currency: 'usd',
    description: p.description,
    idempotencyKey: p.idempotencyKey,
  });
  const ref = { paymentId: p.paymentId };
  if (outcome.status === 'succeeded') {
    await markPaymentSucceeded({ ref, providerPaymentId: outcome.providerPaymentId, receiptUrl: outcome.receiptUrl, reason: 'charged the saved card' });
  } else if (outcome.status === 'processing') {
    await notePendingPayment({ ref, providerPaymentId: outcome.providerPaymentId, reason: 'the charge is processing' });
  } else {
    await markPaymentFailed({ ref, providerPaymentId: outcome.providerPaymentId, reason: describeChargeFailure(outcome) });
  }
  return outcome;
}
