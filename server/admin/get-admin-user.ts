// One user for the operators' console and GET /api/v1/admin/users/{id}: the search result's fields, plus every
// account the user can spend from (their personal account and each organization they belong to) with its
// balance and its latest credit movements (every ledger entry but usage: payments, adjustments, refunds,
// promotions), so an operator sees an adjustment land where they made it.
import { db, type Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';
import { toBalanceDto } from '@/server/ledger/balance';
import { adminUserSelect, toAdminUserDto } from './admin-users';

export const RECENT_ENTRIES = 10;

const accountSelect = {
  id: true,
  kind: true,
  paidMicros: true,
  promoMicros: true,
  reservedMicros: true,
} satisfies Prisma.AccountSelect;

const recentEntrySelect = { id: true, kind: true, amountMicros: true, balanceAfterMicros: true, note: true, actorUserId: true, createdAt: true } satisfies Prisma.LedgerEntrySelect;

export async function getAdminUserOrThrow(p: { userId: string }) {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: adminUserSelect });
  if (!user) throw new AppError('not_found', `No user ${p.userId}`);
  const dto = toAdminUserDto(user);
  const ids = [user.personalAccountId, ...dto.organizations.map((o) => o.id)];
  const rows = await prisma.account.findMany({ where: { id: { in: ids } }, select: accountSelect });
  const byId = new Map(rows.map((a) => [a.id, a]));
  // The ledger's rows carry no relation to Account (migration 20261128103031_hot_path_references): read per account.
  const recent = await Promise.all(
    ids.map((accountId) =>
      prisma.ledgerEntry.findMany({ where: { accountId, kind: { not: 'USAGE' } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: RECENT_ENTRIES, select: recentEntrySelect }),
    ),
  );
  const accounts = ids.flatMap((id, i) => {
    const a = byId.get(id);
    if (!a) return [];
    const org = dto.organizations.find((o) => o.id === id);
    const total = a.paidMicros + a.promoMicros;
    return [
      {
        id,
        kind: a.kind === 'PERSONAL' ? ('personal' as const) : ('organization' as const),
        name: org ? org.name : 'Personal',
        role: org ? org.role : 'owner',
        balance: toBalanceDto({ accountId: id, paidMicros: a.paidMicros, promoMicros: a.promoMicros, reservedMicros: a.reservedMicros, totalMicros: total, availableMicros: total - a.reservedMicros }),
        recent_entries: recent[i]!.map((e) => ({
          id: e.id,
          kind: e.kind.toLowerCase(),
          amount: microsToUsd(e.amountMicros),
          amount_micros: e.amountMicros.toString(),
          balance_after: microsToUsd(e.balanceAfterMicros),
          note: e.note,
          actor_user_id: e.actorUserId,
          created_at: e.createdAt.toISOString(),
        })),
      },
    ];
  });
  return { data: { ...dto, accounts } };
}
