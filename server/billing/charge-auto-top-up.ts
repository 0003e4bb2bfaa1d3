// One auto top-up: claim the account's single in-flight slot with a conditional UPDATE (so of a burst of
// triggers exactly one wins), record the payment in the same transaction, then charge the saved card
// off-session. Success credits through the normal fulfilment; a failure switches auto top-up off with
// the reason (settle-payment.ts). A cool-down between top-ups stops a loop when usage outruns them.
import { randomBytes } from 'node:crypto';
import { db } from '@/server/db';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { recordAudit } from '@/server/audit/record-audit';
import { recordAutoTopUpDisabled } from './auto-top-up-settings';
import { chargeSavedCard } from './charge-saved-card';
import { auditPaymentSelect, paymentAuditView } from './payment-dto';
import { STALE_IN_FLIGHT_MS } from './maybe-trigger-auto-top-up';
import { MICROS_PER_CENT } from './billing-inputs';
import { defaultPaymentMethodRow } from './payment-methods';
import { paymentProvider } from './payment-provider';
import type { ChargeOutcome } from './payment-provider';

/** At most one top-up per account per minute, whatever happens to the balance. */
export const AUTO_TOP_UP_COOLDOWN_SECONDS = 60;

const newPaymentId = () => `c${Date.now().toString(36)}${randomBytes(10).toString('hex')}`;

export async function chargeAutoTopUp(accountId: string): Promise<{ paymentId: string; outcome: ChargeOutcome } | null> {
  const provider = await paymentProvider();
  const prisma = await db();
  const method = await defaultPaymentMethodRow(accountId, provider.name);
  if (!method) {
    const reason = 'No saved payment method to charge';
    await prisma.$transaction(async (tx) => {
      const off = await tx.autoTopUp.updateMany({ where: { accountId, enabled: true, inFlightPaymentId: null }, data: { enabled: false, disabledReason: reason } });
      if (off.count > 0) {
        await recordAutoTopUpDisabled(tx, accountId, reason);
        await recordAccountEvent(tx, { accountId, type: 'auto_top_up.failed', data: { reason, payment_id: null } });
      }
    });
    return null;
  }
  const paymentId = newPaymentId();
  const claimed = await prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ amountMicros: bigint }[]>`
      UPDATE "AutoTopUp" AS t
      SET "inFlightPaymentId" = ${paymentId}, "lastTriggeredAt" = now(), "updatedAt" = now()
      FROM "Account" AS a
      WHERE t."accountId" = ${accountId} AND a.id = t."accountId" AND t.enabled AND t."inFlightPaymentId" IS NULL
        AND a."paidMicros" + a."promoMicros" < t."thresholdMicros"
        AND (t."lastTriggeredAt" IS NULL OR t."lastTriggeredAt" < now() - make_interval(secs => ${AUTO_TOP_UP_COOLDOWN_SECONDS}::int))
      RETURNING t."amountMicros"`;
    if (rows.length === 0) return null;
    const amountCents = Number(rows[0].amountMicros / MICROS_PER_CENT);
    const payment = await tx.payment.create({
      data: { id: paymentId, accountId, provider: provider.name, kind: 'AUTO_TOP_UP', creditMicros: BigInt(amountCents) * MICROS_PER_CENT, amountCents, idempotencyKey: `auto-top-up:${paymentId}` },
      select: auditPaymentSelect,
    });
    await recordAudit(tx, { accountId, action: 'payment.create', target: { type: 'payment', id: paymentId }, after: paymentAuditView(payment), actor: { kind: 'system', via: 'system', label: 'auto top-up' } });
    await tx.paymentEvent.create({ data: { paymentId, toStatus: 'PENDING', reason: `auto top-up: balance below the threshold; charging ${method.brand} •••• ${method.last4}` } });
    return { amountCents };
  });
  if (!claimed) return null;
  const outcome = await chargeSavedCard({
    provider,
    paymentId,
    accountId,
    amountCents: claimed.amountCents,
    paymentMethodProviderId: method.providerId,
    description: `Switchboard auto top-up ($${(claimed.amountCents / 100).toFixed(2)})`,
    idempotencyKey: `auto-top-up:${paymentId}`,
  });
  return { paymentId, outcome };
}

/**
 * The in-flight top-up outlived its process (no outcome recorded): ask the provider again with the same
 * idempotency key, which returns the original charge's result instead of charging twice.
 */
export async function resumeAutoTopUp(accountId: string, paymentId: string): Promise<void> {
  const prisma = await db();
  const payment = await prisma.payment.findUnique({ where: { id: paymentId }, select: { status: true, amountCents: true, idempotencyKey: true } });
  if (!payment || payment.status !== 'PENDING') {
    await prisma.autoTopUp.updateMany({ where: { accountId, inFlightPaymentId: paymentId }, data: { inFlightPaymentId: null } });
    return;
  }
  // Only one resumer: move the trigger time forward conditionally.
  const claimed = await prisma.autoTopUp.updateMany({
    where: { accountId, inFlightPaymentId: paymentId, lastTriggeredAt: { lt: new Date(Date.now() - STALE_IN_FLIGHT_MS) } },
    data: { lastTriggeredAt: new Date() },
  });
  if (claimed.count === 0) return;
  const provider = await paymentProvider();
  const method = await defaultPaymentMethodRow(accountId, provider.name);
  if (!method) return;
  await chargeSavedCard({
    provider,
    paymentId,
    accountId,
    amountCents: payment.amountCents,
    paymentMethodProviderId: method.providerId,
    description: `Switchboard auto top-up ($${(payment.amountCents / 100).toFixed(2)})`,
    idempotencyKey: payment.idempotencyKey ?? `auto-top-up:${paymentId}`,
  });
}
