// Appends one entry to the audit log, in the caller's transaction when given (so the entry commits or rolls
// back with the change it describes). Who and from where come from the audit context (audit-context.ts).
import { db, Prisma } from '@/server/db';
import { newRowId } from '@/server/ledger/reserve';
import { currentAuditActor, type AuditActor } from './audit-context';

export interface AuditEntry {
  /** The organization's or the personal account the change belongs to; null for the instance's own settings (the catalog). */
  accountId: string | null;
  /** `<object>.<verb>`, e.g. api_key.create, api_key.update, member.role_change, provider_key.set. */
  action: string;
  target: { type: string; id?: string | null };
  /** The object before and after the change (DTO shapes: never a secret, hash or encrypted value). */
  before?: unknown;
  after?: unknown;
  /** Overrides the context's actor (e.g. a Stripe webhook acting for the system). */
  actor?: AuditActor;
}

type Tx = Prisma.TransactionClient;

const json = (v: unknown) => (v === undefined ? undefined : v === null ? Prisma.JsonNull : (JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))) as Prisma.InputJsonValue));

/**
 * The actor's readable name: an API key's hint, else the user's email. Looked up once per actor (the edges
 * leave it out so that requests changing nothing pay no query), through the caller's transaction — PGlite
 * runs one transaction at a time, so a query on another connection would wait for this one to end.
 */
async function labelOf(client: Tx, actor: AuditActor): Promise<string> {
  if (actor.label !== undefined) return actor.label;
  let label = '';
  if (actor.apiKeyId) label = (await client.apiKey.findUnique({ where: { id: actor.apiKeyId }, select: { hint: true } }))?.hint ?? '';
  if (!label && actor.userId) label = (await client.user.findUnique({ where: { id: actor.userId }, select: { email: true } }))?.email ?? '';
  actor.label = label;
  return label;
}

export async function recordAudit(tx: Tx | null | undefined, entry: AuditEntry): Promise<void> {
  const actor = entry.actor ?? currentAuditActor();
  const client = tx ?? (await db());
  const label = await labelOf(client, actor);
  await client.auditLogEntry.create({
    data: {
      id: newRowId(),
      accountId: entry.accountId,
      actorUserId: actor.userId ?? null,
      actorKind: actor.kind,
      actorLabel: label,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id ?? null,
      before: json(entry.before),
      after: json(entry.after),
      via: actor.via,
      ip: actor.ip ?? null,
      userAgent: actor.userAgent ?? null,
    },
  });
}
