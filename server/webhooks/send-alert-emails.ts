// The email step of the worker: alert emails that are due are claimed like webhook deliveries (FOR UPDATE
// SKIP LOCKED, a lease), sent through SMTP, and retried on the same schedule when the mail server refuses.
import { db } from '@/server/db';
import { env } from '@/server/env';
import { mailConfigured, sendEmail } from '@/server/email/smtp';
import { ts } from '@/server/ledger/reserve';
import { alertEmailText } from './alert-email-text';
import { nextAttemptAfter } from './deliver-due-webhooks';

const LEASE_MS = 60_000;
const BATCH = 20;

export async function sendDueAlertEmails(o: { retryDelaysMs: readonly number[] }): Promise<number> {
  if (!mailConfigured()) return 0;
  const prisma = await db();
  const now = new Date();
  const claimed = await prisma.$queryRaw<{ eventId: string; attempts: number }[]>`
    UPDATE "AlertEmail" AS m
    SET attempts = m.attempts + 1, "nextAttemptAt" = ${ts(new Date(now.getTime() + LEASE_MS))}::timestamp(3)
    FROM (SELECT "eventId" FROM "AlertEmail"
          WHERE status = 'PENDING'::"DeliveryStatus" AND "nextAttemptAt" <= ${ts(now)}::timestamp(3)
          ORDER BY "nextAttemptAt" LIMIT ${BATCH} FOR UPDATE SKIP LOCKED) AS due
    WHERE m."eventId" = due."eventId"
    RETURNING m."eventId", m.attempts`;
  if (claimed.length === 0) return 0;
  const rows = await prisma.alertEmail.findMany({
    where: { eventId: { in: claimed.map((c) => c.eventId) } },
    select: { eventId: true, recipients: true, event: { select: { type: true, data: true, account: { select: { name: true } } } } },
  });
  const publicUrl = env().PUBLIC_URL;
  await Promise.all(
    rows.map(async (row) => {
      const attempts = claimed.find((c) => c.eventId === row.eventId)!.attempts;
      const message = alertEmailText({ type: row.event.type, data: row.event.data, accountName: row.event.account.name, consoleUrl: publicUrl ? new URL('/billing', publicUrl).toString() : null });
      let error: string | null = null;
      if (message) await sendEmail({ to: row.recipients, ...message }).catch((err: unknown) => (error = String((err as Error)?.message ?? err).slice(0, 500)));
      const at = new Date();
      const next = error ? nextAttemptAfter(attempts, at, o.retryDelaysMs) : null;
      await prisma.alertEmail.updateMany({
        where: { eventId: row.eventId, attempts, status: 'PENDING' },
        data: error ? { lastError: error, ...(next ? { nextAttemptAt: next } : { status: 'FAILED' }) } : { status: 'SUCCEEDED', sentAt: at, lastError: message ? null : 'nothing to send for this event' },
      });
    }),
  );
  return claimed.length;
}
