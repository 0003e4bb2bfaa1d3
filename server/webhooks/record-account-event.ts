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

export async function recordAccountEvent<T extends AccountEventType>(tx: Tx, event: { accountId: string; type: T; data: AccountEventData[T] }): Promise<string> {
  const id = newEventId();
  await tx.accountEvent.create({ data: { id, accountId: event.accountId, type: event.type, data: toJson(event.data) }, select: { id: true } });
  return id;
}
