// Buy credits through a hosted checkout (Stripe Checkout, or the sandbox's page). The payment is recorded
// as PENDING first and its id travels in the session's metadata; credit is added only when the provider
// reports the session paid (fulfil-checkout.ts).
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { checkoutInput, MICROS_PER_CENT, toCents, type CheckoutInput } from './billing-inputs';
import { ensureCustomer } from './ensure-customer';
import { paymentProvider } from './payment-provider';
import { auditPaymentSelect, paymentAuditView, paymentSelect, toPaymentDto, type PaymentDto } from './payment-dto';
import { checkoutReturnUrls } from './return-urls';
import { markPaymentFailed } from './settle-payment';

export interface CheckoutDto {
  payment: PaymentDto;
  checkout_session_id: string;
  url: string;
  expires_at: string | null;
}

export async function createCreditCheckout(p: { accountId: string; userId: string; input: CheckoutInput; origin: string }): Promise<CheckoutDto> {
  const input = checkoutInput.parse(p.input);
  const provider = await paymentProvider();
  const customerId = await ensureCustomer(provider, p.accountId);
  const amountCents = toCents(input.amount);
  const prisma = await db();
  const created = await prisma.$transaction(async (tx) => {
    const row = await tx.payment.create({
      data: {
        accountId: p.accountId, userId: p.userId, provider: provider.name, kind: 'CHECKOUT', creditMicros: BigInt(amountCents) * MICROS_PER_CENT, amountCents,
        saveCard: input.save_card ?? false, returnPath: input.return_to ?? null,
      },
      select: auditPaymentSelect,
    });
    await tx.paymentEvent.create({ data: { paymentId: row.id, toStatus: 'PENDING', reason: 'checkout started' } });
    await recordAudit(tx, { accountId: p.accountId, action: 'payment.create', target: { type: 'payment', id: row.id }, after: paymentAuditView(row) });
    return row;
  });
  let session;
  try {
    session = await provider.createCheckoutSession({
      paymentId: created.id,
      accountId: p.accountId,
      customerId,
      amountCents,
      currency: 'usd',
      description: `Switchboard credits ($${input.amount.toFixed(2)})`,
      saveCard: input.save_card ?? false,
      ...checkoutReturnUrls(p.origin, created.id),
    });
  } catch (err) {
    await markPaymentFailed({ ref: { paymentId: created.id }, reason: 'the checkout session could not be created', status: 'CANCELED' });
    throw err;
  }
  const payment = await prisma.payment.update({ where: { id: created.id }, data: { providerCheckoutId: session.id }, select: paymentSelect });
  return { payment: toPaymentDto(payment), checkout_session_id: session.id, url: session.url, expires_at: session.expiresAt?.toISOString() ?? null };
}
