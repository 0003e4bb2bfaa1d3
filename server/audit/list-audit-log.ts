// GET …/audit-log: an account's audit entries, newest first (createdAt, then id, both descending), a page at a
// time with an opaque cursor (the position of the last entry returned, as the usage history does), so pages
// neither repeat nor skip entries while new ones are being written.
import { z } from 'zod';
import { db, type Prisma } from '@/server/db';
import { assertRange, decodeCursor, encodeCursor } from '@/server/usage/usage-query';
import { parseWith } from '@/server/http/api-route';
import { isoInstant, safeString } from '@/server/validation/fields';

export const AUDIT_PAGE_MAX = 200;

export const auditLogQuery = z.object({
  action: safeString()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9_.]+\*?$/, 'action: an action such as api_key.create, or a prefix ending with "." such as api_key.')
    .optional()
    .describe('An action (`member.role_change`), or every action of an object with a prefix ending in "." (`api_key.`; `api_key.*` too)'),
  actor: safeString().min(1).max(100).optional().describe('Only changes made by this user (user id)'),
  target_type: safeString().min(1).max(50).optional().describe('Only changes to this kind of object: api_key, member, invite, organization, payment, subscription…'),
  target_id: safeString().min(1).max(200).optional().describe('Only changes to this object'),
  from: isoInstant().optional().describe('Only entries at or after this instant (inclusive)'),
  to: isoInstant().optional().describe('Only entries before this instant (exclusive)'),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50).describe(`Page size, 1–${AUDIT_PAGE_MAX} (default 50)`),
  cursor: safeString().max(200).optional().describe('next_cursor of the previous page'),
  format: z.enum(['json', 'csv']).optional().describe('csv: the page as text/csv (also with `Accept: text/csv`); the next page\'s cursor is in the `X-Next-Cursor` header'),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

const entrySelect = {
  id: true,
  accountId: true,
  actorUserId: true,
  actorKind: true,
  actorLabel: true,
  action: true,
  targetType: true,
  targetId: true,
  before: true,
  after: true,
  via: true,
  ip: true,
  userAgent: true,
  createdAt: true,
} as const;

type EntryRow = Prisma.AuditLogEntryGetPayload<{ select: typeof entrySelect }>;

export function toAuditEntryDto(e: EntryRow) {
  return {
    id: e.id,
    created_at: e.createdAt.toISOString(),
    account_id: e.accountId,
    action: e.action,
    actor: { kind: e.actorKind, user_id: e.actorUserId, label: e.actorLabel, via: e.via, ip: e.ip, user_agent: e.userAgent },
    target: { type: e.targetType, id: e.targetId },
    before: e.before ?? null,
    after: e.after ?? null,
  };
}
export type AuditEntryDto = ReturnType<typeof toAuditEntryDto>;

export interface AuditLogPage {
  data: AuditEntryDto[];
  next_cursor: string | null;
}

/** `api_key.` and `api_key.*` select the object's every action; anything else is one action. */
function actionFilter(action: string): Prisma.StringFilter | string {
  const prefix = action.endsWith('*') ? action.slice(0, -1) : action.endsWith('.') ? action : null;
  // Prisma turns startsWith into LIKE without escaping: "_" (in every object name) would match any character.
  return prefix === null ? action : { startsWith: prefix.replace(/[\\%_]/g, '\\$&') };
}

/** The caller was authorized for `accountId` (owners and admins of an organization, or the user's personal account). */
export async function listAuditLog(p: { accountId: string; query: AuditLogQuery }): Promise<AuditLogPage> {
  return findAuditEntries({ accountId: p.accountId }, p.query);
}

/** The operators' view (GET /api/v1/admin/audit-log): every account's entries, or one account's with `account_id`. */
export const instanceAuditLogQuery = auditLogQuery.omit({ format: true }).extend({
  account_id: safeString().min(1).max(100).optional().describe("Only this account's entries (a personal account or an organization)"),
});

/** Operators only (the edge checks): entries of every account, with the same filters and paging. */
export async function listInstanceAuditLog(raw: unknown): Promise<AuditLogPage> {
  const query = parseWith(instanceAuditLogQuery, raw);
  return findAuditEntries(query.account_id ? { accountId: query.account_id } : {}, query);
}

async function findAuditEntries(scope: { accountId?: string }, q: Omit<AuditLogQuery, 'format'>): Promise<AuditLogPage> {
  assertRange(q.from, q.to);
  const cursor = q.cursor ? decodeCursor(q.cursor) : null;
  const prisma = await db();
  const rows = await prisma.auditLogEntry.findMany({
    where: {
      ...scope,
      ...(q.action ? { action: actionFilter(q.action) } : {}),
      ...(q.actor ? { actorUserId: q.actor } : {}),
      ...(q.target_type ? { targetType: q.target_type } : {}),
      ...(q.target_id ? { targetId: q.target_id } : {}),
      ...(q.from || q.to ? { createdAt: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lt: q.to } : {}) } } : {}),
      ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: entrySelect,
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { data: page.map(toAuditEntryDto), next_cursor: rows.length > q.limit && last ? encodeCursor(last) : null };
}
