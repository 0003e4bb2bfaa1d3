// Called after usage is settled (server/ledger/settlement-queue.ts, once per written batch): for the accounts whose
// balance fell below their auto top-up threshold, start one top-up each. Cheap when nothing is due (one
// indexed query for the whole batch) and never throws into the caller. The charging code is loaded only
// when a top-up is actually due, so the settlement path does not load the payment SDK.
import { asSystem } from '@/server/audit/audit-context';
import { db } from '@/server/db';

/** A top-up still in flight after this long belonged to a process that died mid-charge: resume it. */
export const STALE_IN_FLIGHT_MS = 10 * 60_000;

export function maybeTriggerAutoTopUps(accountIds: Iterable<string>): Promise<void> {
  // The settlement batch that calls this may have been scheduled inside someone's request: a top-up is the system's.
  return asSystem('auto top-up', () => triggerDue(accountIds));
}

async function triggerDue(accountIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return;
  try {
    const prisma = await db();
    // One statement (Prisma's relation select is two): it runs every AUTO_TOP_UP_CHECK_MS under load. The ids
    // go as one JSON array (the embedded database's client passes no array parameters).
    const rows = await prisma.$queryRaw<{ accountId: string; thresholdMicros: bigint; inFlightPaymentId: string | null; lastTriggeredAt: Date | null; balanceMicros: bigint }[]>`
      SELECT t."accountId", t."thresholdMicros", t."inFlightPaymentId", t."lastTriggeredAt", a."paidMicros" + a."promoMicros" AS "balanceMicros"
      FROM "AutoTopUp" t JOIN "Account" a ON a.id = t."accountId"
      WHERE t.enabled AND t."accountId" IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
    const staleBefore = Date.now() - STALE_IN_FLIGHT_MS;
    const due = rows.filter((r) => (r.inFlightPaymentId ? (r.lastTriggeredAt?.getTime() ?? 0) < staleBefore : r.balanceMicros < r.thresholdMicros));
    if (due.length === 0) return;
    const { chargeAutoTopUp, resumeAutoTopUp } = await import('./charge-auto-top-up');
    await Promise.all(
      due.map((r) =>
        (r.inFlightPaymentId ? resumeAutoTopUp(r.accountId, r.inFlightPaymentId) : chargeAutoTopUp(r.accountId)).catch((err) =>
          console.error(`auto top-up of account ${r.accountId} failed:`, (err as Error).message),
        ),
      ),
    );
  } catch (err) {
    console.error('auto top-up check failed:', (err as Error).message);
  }
}

export function maybeTriggerAutoTopUp(accountId: string): Promise<void> {
  return maybeTriggerAutoTopUps([accountId]);
}
