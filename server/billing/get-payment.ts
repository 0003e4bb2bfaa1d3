// One payment of an account: details with its state history, the bare status (which also asks the provider
// about a pending checkout, so a client polling after the redirect sees the credit without waiting for
// the webhook), and the provider's own record.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { refreshCheckoutPayment } from './fulfil-checkout';
import { paymentProvider } from './payment-provider';
import { paymentSelect, toPaymentDto, toPaymentEventDto } from './payment-dto';

async function paymentOrThrow(accountId: string, paymentId: string) {
  const prisma = await db();
  const p = await prisma.payment.findFirst({ where: { id: paymentId, accountId }, select: paymentSelect });
  if (!p) throw new AppError('not_found', 'Payment not found');
  return p;
}

export async function getPayment(p: { accountId: string; paymentId: string }) {
  const payment = await paymentOrThrow(p.accountId, p.paymentId);
  const prisma = await db();
  const [events, entries] = await Promise.all([
    prisma.paymentEvent.findMany({ where: { paymentId: payment.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { fromStatus: true, toStatus: true, reason: true, providerEventId: true, createdAt: true } }),
    prisma.ledgerEntry.findMany({ where: { paymentId: payment.id }, orderBy: { createdAt: 'asc' }, select: { id: true, kind: true, amountMicros: true, balanceAfterMicros: true, createdAt: true } }),
  ]);
  return {
    ...toPaymentDto(payment),
    events: events.map(toPaymentEventDto),
    ledger_entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind.toLowerCase(),
      amount: Number(e.amountMicros) / 1e6,
      balance_after: Number(e.balanceAfterMicros) / 1e6,
      created_at: e.createdAt.toISOString(),
    })),
  };
}

export async function getPaymentStatus(p: { accountId: string; paymentId: string }) {
  let payment = await paymentOrThrow(p.accountId, p.paymentId);
  if (payment.status === 'PENDING' && payment.kind === 'CHECKOUT') {
    await refreshCheckoutPayment({ paymentId: payment.id });
    payment = await paymentOrThrow(p.accountId, p.paymentId);
  }
  return {
    id: payment.id,
    status: payment.status.toLowerCase(),
    credited: payment.creditedAt !== null,
    failure_reason: payment.failureReason,
    updated_at: payment.updatedAt.toISOString(),
  };
}

/** `paymentId` may be ours or the provider's (pi_…, cs_…, in_…). */
export async function getProviderPaymentDetails(p: { accountId: string; paymentId: string }) {
  const prisma = await db();
  const payment = await prisma.payment.findFirst({
    where: { accountId: p.accountId, OR: [{ id: p.paymentId }, { providerPaymentId: p.paymentId }, { providerCheckoutId: p.paymentId }] },
    select: { id: true, provider: true, providerPaymentId: true, providerCheckoutId: true },
  });
  if (!payment) throw new AppError('not_found', 'Payment not found');
  const provider = await paymentProvider();
  if (provider.name !== payment.provider) {
    throw new AppError('conflict', `This payment was made with the ${payment.provider.toLowerCase()} provider, which this server no longer uses`);
  }
  const details = await provider.retrievePaymentDetails({ providerPaymentId: payment.providerPaymentId, checkoutId: payment.providerCheckoutId });
  if (!details) throw new AppError('not_found', 'The payment provider has no record of this payment yet');
  return { payment_id: payment.id, provider: payment.provider.toLowerCase(), data: details };
}
