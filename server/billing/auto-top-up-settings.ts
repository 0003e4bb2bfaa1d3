// Auto top-up settings of an account: off by default; when on, a charge that takes the balance below
// `threshold` buys `amount` of credit with the saved card (maybe-trigger-auto-top-up.ts).
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import type { Tx } from '@/server/ledger/post-ledger-entry';
import { microsToUsd, usdToMicros } from '@/server/ledger/money';
import { autoTopUpInput, type AutoTopUpInput } from './billing-inputs';
import { maybeTriggerAutoTopUp } from './maybe-trigger-auto-top-up';
import { defaultPaymentMethodOrThrow, defaultPaymentMethodRow } from './payment-methods';
import { paymentProvider } from './payment-provider';
import { toPaymentMethodDto } from './payment-dto';

export const DEFAULT_THRESHOLD_MICROS = 5_000_000n;
export const DEFAULT_AMOUNT_MICROS = 20_000_000n;

const select = { enabled: true, thresholdMicros: true, amountMicros: true, inFlightPaymentId: true, lastTriggeredAt: true, disabledReason: true, updatedAt: true } as const;

export async function getAutoTopUp(p: { accountId: string }) {
  const prisma = await db();
  const provider = await paymentProvider();
  const [row, method] = await Promise.all([
    prisma.autoTopUp.findUnique({ where: { accountId: p.accountId }, select }),
    defaultPaymentMethodRow(p.accountId, provider.name),
  ]);
  return {
    account_id: p.accountId,
    enabled: row?.enabled ?? false,
    threshold: microsToUsd(row?.thresholdMicros ?? DEFAULT_THRESHOLD_MICROS),
    amount: microsToUsd(row?.amountMicros ?? DEFAULT_AMOUNT_MICROS),
    /** Why it was switched off automatically (e.g. the card was declined); null when it was not. */
    disabled_reason: row?.disabledReason ?? null,
    in_flight_payment_id: row?.inFlightPaymentId ?? null,
    last_triggered_at: row?.lastTriggeredAt?.toISOString() ?? null,
    payment_method: method ? toPaymentMethodDto(method) : null,
  };
}
export type AutoTopUpDto = Awaited<ReturnType<typeof getAutoTopUp>>;

export async function updateAutoTopUp(p: { accountId: string; input: AutoTopUpInput; setupPath: string }): Promise<AutoTopUpDto> {
  const input = autoTopUpInput.parse(p.input);
  if (input.enabled) {
    const provider = await paymentProvider();
    await defaultPaymentMethodOrThrow(p.accountId, provider.name, p.setupPath);
  }
  const data = {
    enabled: input.enabled,
    ...(input.threshold !== undefined ? { thresholdMicros: usdToMicros(input.threshold) } : {}),
    ...(input.amount !== undefined ? { amountMicros: usdToMicros(input.amount) } : {}),
    // Switching it on again clears the reason it was switched off.
    ...(input.enabled ? { disabledReason: null } : {}),
  };
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const before = await tx.autoTopUp.findUnique({ where: { accountId: p.accountId }, select: auditSelect });
    const after = await tx.autoTopUp.upsert({ where: { accountId: p.accountId }, create: { accountId: p.accountId, ...data }, update: data, select: auditSelect });
    await recordAudit(tx, { accountId: p.accountId, action: 'auto_top_up.update', target: { type: 'auto_top_up', id: p.accountId }, before: before ? autoTopUpAuditView(before) : null, after: autoTopUpAuditView(after) });
  });
  // Already below the threshold (switched on again after a declined card, say): top up now. Usage would never
  // trigger it, since a balance that low has requests refused at admission, which settle nothing.
  if (input.enabled) await maybeTriggerAutoTopUp(p.accountId);
  return getAutoTopUp({ accountId: p.accountId });
}

const auditSelect = { enabled: true, thresholdMicros: true, amountMicros: true, disabledReason: true } as const;

function autoTopUpAuditView(r: { enabled: boolean; thresholdMicros: bigint; amountMicros: bigint; disabledReason: string | null }) {
  return { enabled: r.enabled, threshold: microsToUsd(r.thresholdMicros), amount: microsToUsd(r.amountMicros), disabled_reason: r.disabledReason };
}

/** Auto top-up switched itself off (a declined card, no card left): the system's change, recorded as one. */
export async function recordAutoTopUpDisabled(tx: Tx, accountId: string, reason: string): Promise<void> {
  await recordAudit(tx, {
    accountId,
    action: 'auto_top_up.disable',
    target: { type: 'auto_top_up', id: accountId },
    before: { enabled: true },
    after: { enabled: false, disabled_reason: reason },
    actor: { kind: 'system', via: 'system', label: 'auto top-up' },
  });
}
