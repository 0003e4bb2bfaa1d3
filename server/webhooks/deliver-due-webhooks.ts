// The delivery step of the worker: claims the deliveries that are due (FOR UPDATE SKIP LOCKED, so several
// instances share them and none is sent twice at once), sends each, and records the outcome. Claiming moves
// the delivery's next attempt to the end of a lease: a process that dies mid-attempt leaves it to be tried
// again when the lease ends. Delivery is at least once: a receiver deduplicates on webhook-id.
import type { Agent } from 'undici';
import { db } from '@/server/db';
import { ts } from '@/server/ledger/reserve';
import { attemptDelivery, type WebhookPayload } from './deliver-webhook';
import { openWebhookSecret } from './webhook-secret';

/**
 * Delays after each failed attempt: the Standard Webhooks schedule (immediately, then 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h, 10 h): 8 attempts over about 27.5 hours, after which the delivery is marked failed.
 */
export const STANDARD_RETRY_DELAYS_MS: readonly number[] = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];

/** Longer than an attempt can take (deliver-webhook.ts: 15 s). */
const LEASE_MS = 60_000;
const BATCH = 20;

export interface DeliveryOptions {
  agent: Agent;
  allowPrivate: boolean;
  retryDelaysMs: readonly number[];
}

/** When a delivery whose `attempts`-th attempt failed is tried next; null when it has used them all. */
export function nextAttemptAfter(attempts: number, failedAt: Date, delays: readonly number[]): Date | null {
  const delay = delays[attempts - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}

export async function deliverDueWebhooks(o: DeliveryOptions): Promise<number> {
  const prisma = await db();
  const now = new Date();
  const claimed = await prisma.$queryRaw<{ id: string; attempts: number }[]>`
    UPDATE "WebhookDelivery" AS d
    SET attempts = d.attempts + 1, "lastAttemptAt" = ${ts(now)}::timestamp(3), "nextAttemptAt" = ${ts(new Date(now.getTime() + LEASE_MS))}::timestamp(3)
    FROM (SELECT id FROM "WebhookDelivery"
          WHERE status = 'PENDING'::"DeliveryStatus" AND "nextAttemptAt" <= ${ts(now)}::timestamp(3)
          ORDER BY "nextAttemptAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED) AS due
    WHERE d.id = due.id
    RETURNING d.id, d.attempts`;
  if (claimed.length === 0) return 0;
  const rows = await prisma.webhookDelivery.findMany({
    where: { id: { in: claimed.map((c) => c.id) } },
    select: { id: true, webhook: { select: { url: true, encryptedSecret: true } }, event: { select: { id: true, type: true, data: true, createdAt: true, accountId: true } } },
  });
  await Promise.all(
    rows.map(async (row) => {
      const attempts = claimed.find((c) => c.id === row.id)!.attempts;
      const payload: WebhookPayload = { id: row.event.id, type: row.event.type, timestamp: row.event.createdAt.toISOString(), account_id: row.event.accountId, data: row.event.data };
      let secret: string;
      try {
        secret = openWebhookSecret(row.webhook.encryptedSecret);
      } catch (err) {
        return record(row.id, attempts, { ok: false, httpStatus: null, error: `cannot sign: ${(err as Error).message}` }, o.retryDelaysMs);
      }
      const result = await attemptDelivery({ agent: o.agent, allowPrivate: o.allowPrivate, url: row.webhook.url, secret, payload });
      return record(row.id, attempts, result, o.retryDelaysMs);
    }),
  );
  return claimed.length;
}

/** Records an attempt's outcome, unless the delivery was claimed again meanwhile (its lease ran out). */
async function record(id: string, attempts: number, result: { ok: boolean; httpStatus: number | null; error: string | null }, delays: readonly number[]): Promise<void> {
  const prisma = await db();
  const at = new Date();
  const next = result.ok ? null : nextAttemptAfter(attempts, at, delays);
  await prisma.webhookDelivery.updateMany({
    where: { id, attempts, status: 'PENDING' },
    data: result.ok
      ? { status: 'SUCCEEDED', deliveredAt: at, lastHttpStatus: result.httpStatus, lastError: null }
      : { lastHttpStatus: result.httpStatus, lastError: result.error, ...(next ? { nextAttemptAt: next } : { status: 'FAILED' }) },
  });
}
