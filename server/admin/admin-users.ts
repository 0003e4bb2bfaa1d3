// The operators' user tools (/api/v1/admin/users): search, suspend, restore. A suspension is read on every
// request by the bearer lookup (server/auth/authenticate-bearer.ts joins User."suspendedAt"), by sign-in
// (verify-credentials.ts, next-auth's signIn callback) and by the gateway's admission.
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { parseWith } from '@/server/http/api-route';
import { microsToUsd } from '@/server/ledger/money';
import { isoOrNull, safeString } from '@/server/validation/fields';

export const adminUsersQuerySchema = z.object({
  q: safeString().max(200).optional().describe('Case-insensitive substring of the email or name (%, _ and \\ match themselves)'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: safeString().max(200).optional().describe('next_cursor of the previous page'),
});

export const suspendBodySchema = z.object({ reason: safeString().trim().min(1).max(500) }).strict();

export const adminUserSelect = {
  id: true,
  email: true,
  name: true,
  createdAt: true,
  isOperator: true,
  suspendedAt: true,
  suspendedReason: true,
  personalAccountId: true,
  personalAccount: { select: { paidMicros: true, promoMicros: true } },
  memberships: { select: { role: true, organization: { select: { id: true, name: true } } }, orderBy: { organizationId: 'asc' as const } },
} as const;

type UserRow = {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  isOperator: boolean;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  personalAccountId: string;
  personalAccount: { paidMicros: bigint; promoMicros: bigint };
  memberships: { role: string; organization: { id: string; name: string } }[];
};

export function toAdminUserDto(u: UserRow) {
  const balance = u.personalAccount.paidMicros + u.personalAccount.promoMicros;
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    created_at: u.createdAt.toISOString(),
    is_operator: u.isOperator,
    suspended_at: isoOrNull(u.suspendedAt),
    suspended_reason: u.suspendedReason,
    personal_account_id: u.personalAccountId,
    personal_balance: microsToUsd(balance),
    personal_balance_micros: balance.toString(),
    organizations: u.memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: m.role.toLowerCase() })),
  };
}

/** One page of users, by id; `q` matches email or name containing it (literally), case-insensitively. */
export async function listAdminUsers(raw: unknown) {
  const query = parseWith(adminUsersQuerySchema, raw);
  const prisma = await db();
  // Prisma turns `contains` into ILIKE '%q%' without escaping (as list-audit-log.ts notes for startsWith): escaped
  // with PostgreSQL's default LIKE escape, `\`, `%` and `_` are the characters themselves, not wildcards.
  const q = query.q?.trim().replace(/[\\%_]/g, '\\$&');
  const rows = await prisma.user.findMany({
    where: {
      ...(q ? { OR: [{ email: { contains: q, mode: 'insensitive' as const } }, { name: { contains: q, mode: 'insensitive' as const } }] } : {}),
      ...(query.cursor ? { id: { gt: query.cursor } } : {}),
    },
    orderBy: { id: 'asc' },
    take: query.limit + 1,
    select: adminUserSelect,
  });
  const page = rows.slice(0, query.limit);
  return { data: page.map(toAdminUserDto), next_cursor: rows.length > query.limit ? page[page.length - 1].id : null };
}

async function setSuspension(p: { operatorUserId: string; userId: string; suspend: boolean; reason?: string }) {
  if (p.suspend && p.userId === p.operatorUserId) throw new AppError('bad_request', 'Operators cannot suspend themselves');
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: p.userId }, select: adminUserSelect });
    if (!before) throw new AppError('not_found', `No user ${p.userId}`);
    const after = await tx.user.update({
      where: { id: p.userId },
      // Suspending again keeps the first instant and takes the new reason.
      data: p.suspend ? { suspendedAt: before.suspendedAt ?? new Date(), suspendedReason: p.reason } : { suspendedAt: null, suspendedReason: null },
      select: adminUserSelect,
    });
    const state = (u: UserRow) => ({ suspended_at: isoOrNull(u.suspendedAt), suspended_reason: u.suspendedReason });
    await recordAudit(tx, {
      accountId: before.personalAccountId,
      action: p.suspend ? 'user.suspend' : 'user.restore',
      target: { type: 'user', id: p.userId },
      before: state(before),
      after: state(after),
    });
    return { data: toAdminUserDto(after) };
  });
}

export async function suspendUser(p: { operatorUserId: string; userId: string; body: unknown }) {
  const { reason } = parseWith(suspendBodySchema, p.body);
  return setSuspension({ operatorUserId: p.operatorUserId, userId: p.userId, suspend: true, reason });
}

export async function restoreUser(p: { operatorUserId: string; userId: string }) {
  return setSuspension({ ...p, suspend: false });
}
