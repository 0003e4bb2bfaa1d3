// Fan-out: events written to the outbox become one WebhookDelivery per webhook of the account subscribed to
// their type and, for alerts with SMTP configured, one AlertEmail. A batch of events is claimed FOR UPDATE
// SKIP LOCKED and marked dispatched in the same transaction, so with several instances each event is fanned
// out exactly once (and the unique (webhookId, eventId) index would refuse a second delivery anyway).
import { db, type Prisma } from '@/server/db';
import { mailConfigured } from '@/server/email/smtp';
import { sendsAlertEmail } from './alert-email-text';

const BATCH = 100;

export async function dispatchAccountEvents(): Promise<number> {
  const prisma = await db();
  // Almost always there is nothing to fan out: one statement says so, where the claiming transaction is three
  // (on the embedded database a transaction has the session to itself, and admissions waited behind it).
  const pending = await prisma.$queryRaw<unknown[]>`SELECT 1 FROM "AccountEvent" WHERE "dispatchedAt" IS NULL LIMIT 1`;
  if (pending.length === 0) return 0;
  return prisma.$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; accountId: string; type: string; data: unknown }[]>`
      SELECT id, "accountId", type, data FROM "AccountEvent"
      WHERE "dispatchedAt" IS NULL ORDER BY "createdAt", id LIMIT ${BATCH}
      FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return 0;
    const accountIds = [...new Set(events.map((e) => e.accountId))];
    const webhooks = await tx.webhook.findMany({ where: { accountId: { in: accountIds } }, select: { id: true, accountId: true, events: true } });
    const now = new Date();
    const deliveries = events.flatMap((e) => webhooks.filter((w) => w.accountId === e.accountId && w.events.includes(e.type)).map((w) => ({ webhookId: w.id, eventId: e.id, nextAttemptAt: now })));
    if (deliveries.length) await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });

    const alerts = mailConfigured() ? events.filter((e) => sendsAlertEmail(e.type, e.data)) : [];
    if (alerts.length) {
      const recipients = await alertRecipients(tx, [...new Set(alerts.map((e) => e.accountId))]);
      const emails = alerts.filter((e) => recipients.get(e.accountId)?.length).map((e) => ({ eventId: e.id, recipients: recipients.get(e.accountId)!, nextAttemptAt: now }));
      if (emails.length) await tx.alertEmail.createMany({ data: emails, skipDuplicates: true });
    }
    await tx.accountEvent.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { dispatchedAt: now } });
    return events.length;
  });
}

/** Who is told of an account's alerts: an organization's owners and billing managers; a personal account's user. */
async function alertRecipients(tx: Prisma.TransactionClient, accountIds: string[]): Promise<Map<string, string[]>> {
  const members = await tx.membership.findMany({
    where: { organizationId: { in: accountIds }, role: { in: ['OWNER', 'BILLING'] } },
    select: { organizationId: true, user: { select: { email: true } } },
    orderBy: { createdAt: 'asc' },
  });
  const users = await tx.user.findMany({ where: { personalAccountId: { in: accountIds } }, select: { personalAccountId: true, email: true } });
  const out = new Map<string, string[]>();
  for (const m of members) out.set(m.organizationId, [...(out.get(m.organizationId) ?? []), m.user.email]);
  for (const u of users) out.set(u.personalAccountId, [u.email]);
  return out;
}
