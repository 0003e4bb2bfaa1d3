// Writes an account event into the outbox (AccountEvent), in the caller's transaction: the event commits
// or rolls back with the change it reports, so a committed change always has its event and a rolled-back
// one never does. The webhook worker fans it out after commit (webhook-worker.ts); nothing here does I/O
// beyond the one INSERT.
import { randomBytes } from 'node:crypto';
import type { Prisma } from '@/server/db';
import type { AccountEventData, AccountEventType } from './webhook-events';

type Tx = Prisma.TransactionClient;

/** "msg_" + 18 random bytes in base64url: the event id, sent as the webhook-id header. */
export function newEventId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

/** JSON for a Json column: bigints as strings, Dates as ISO strings, undefined fields dropped. */
function toJson(data: object): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonObject;
}

/**
 * Events are delivered in createdAt order. The column's default is the transaction's start, the same for every
 * event of one transaction (a member removed: key.deleted, then member.removed), and ids are random: each
 * event gets its own time instead, a millisecond after this process's previous one if the clock has not moved.
 */
let lastEventAt = 0;
function eventTime(): Date {
  lastEventAt = Math.max(Date.now(), lastEventAt + 1);
  return new Date(lastEventAt);
}

export async function recordAccountEvent<T extends AccountEventType>(tx: Tx, event: { accountId: string; type: T; data: AccountEventData[T] }): Promise<string> {
  const id = newEventId();
  await tx.accountEvent.create({ data: { id, accountId: event.accountId, type: event.type, data: toJson(event.data), createdAt: eventTime() }, select: { id: true } });
  return id;
}
