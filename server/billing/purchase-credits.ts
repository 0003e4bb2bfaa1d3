// Buy credits with the saved default card, now (no redirect). One idempotency key = one payment row
// (unique index) = one provider charge (the provider's own idempotency key) = one credit, however many
// times or how concurrently the request is sent. A decline or a card that needs 3-D Secure is a 402
// that says why; nothing is credited.
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { getBalanceOrThrow, toBalanceDto } from '@/server/ledger/balance';
import { MICROS_PER_CENT, purchaseInput, toCents, type PurchaseInput } from './billing-inputs';
import { chargeSavedCard } from './charge-saved-card';
import { UNANSWERED_REASON } from './fail-unanswered-purchases';
import { defaultPaymentMethodOrThrow } from './payment-methods';
import { paymentProvider } from './payment-provider';
import { paymentAuditView, paymentSelect, toPaymentDto, type PaymentDto } from './payment-dto';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

export interface PurchaseDto {
  payment: PaymentDto;
  balance: ReturnType<typeof toBalanceDto>;
}

export async function purchaseCredits(p: { accountId: string; userId: string; input: PurchaseInput; idempotencyKey?: string | null; setupPath: string }): Promise<PurchaseDto> {
  const input = purchaseInput.parse(p.input);
  const provider = await paymentProvider();
  const method = await defaultPaymentMethodOrThrow(p.accountId, provider.name, p.setupPath);
  const amountCents = toCents(input.amount);
  const clientKey = p.idempotencyKey ?? input.idempotency_key ?? randomUUID();
  const idempotencyKey = `purchase:${p.accountId}:${clientKey}`;
  const prisma = await db();

  let payment = await prisma.payment.findUnique({ where: { idempotencyKey }, select: paymentSelect });
  if (!payment) {
    try {
      payment = await prisma.$transaction(async (tx) => {
        const row = await tx.payment.create({
          data: { accountId: p.accountId, userId: p.userId, provider: provider.name, kind: 'DIRECT', creditMicros: BigInt(amountCents) * MICROS_PER_CENT, amountCents, idempotencyKey },
          select: paymentSelect,
        });
        await tx.paymentEvent.create({ data: { paymentId: row.id, toStatus: 'PENDING', reason: `direct purchase with ${method.brand} •••• ${method.last4}` } });
        await recordAudit(tx, { accountId: p.accountId, action: 'payment.create', target: { type: 'payment', id: row.id }, after: { ...paymentAuditView(row), card: `${method.brand} •••• ${method.last4}` } });
        return row;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      payment = await prisma.payment.findUniqueOrThrow({ where: { idempotencyKey }, select: paymentSelect });
    }
  }
  if (payment.amountCents !== amountCents) {
    throw new AppError('conflict', 'This idempotency key was used for a purchase of a different amount', { payment_id: payment.id });
  }
  // PENDING: first attempt, a retry after an unknown outcome, or a concurrent duplicate. All three ask the
  // provider with the same key and get the same charge back.
  if (payment.status === 'PENDING') {
    await chargeSavedCard({
      provider,
      paymentId: payment.id,
      accountId: p.accountId,
      amountCents,
      paymentMethodProviderId: method.providerId,
      description: `Switchboard credits ($${(amountCents / 100).toFixed(2)})`,
      idempotencyKey,
    });
    payment = await prisma.payment.findUniqueOrThrow({ where: { id: payment.id }, select: paymentSelect });
  }
  if (payment.status === 'FAILED' && payment.failureReason === UNANSWERED_REASON) {
    throw new AppError('payment_required', `The payment provider did not answer this purchase in time; nothing was charged. Buy again with a new idempotency key.`, {
      payment_id: payment.id,
      reason: 'provider_unavailable',
    });
  }
  if (payment.status === 'FAILED' || payment.status === 'CANCELED') {
    const requiresAction = /authentication/.test(payment.failureReason ?? '');
    throw new AppError(
      'payment_required',
      requiresAction
        ? 'Your card requires authentication (3-D Secure), which a direct purchase cannot ask for. Buy credits through checkout instead (POST …/credits/checkout).'
        : `Your card was declined: ${payment.failureReason ?? 'no reason given'}. No credit was added.`,
      { payment_id: payment.id, reason: requiresAction ? 'authentication_required' : 'card_declined', decline_reason: payment.failureReason },
    );
  }
  return { payment: toPaymentDto(payment), balance: toBalanceDto(await getBalanceOrThrow(p.accountId)) };
}
