// Usage per member of an organization over a period (the members table's "spend this month" column):
// one GROUP BY in the database. The caller has established usage:read-all on the organization.
import { z } from 'zod';
import { isoInstant } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';

export const memberUsageSummaryInput = z.object({
  from: isoInstant(),
  to: isoInstant().optional(),
});
export type MemberUsageSummaryQuery = z.output<typeof memberUsageSummaryInput>;

export interface MemberUsageSummary {
  user_id: string;
  requests: number;
  spend: number;
  total_tokens: number;
}

export async function summarizeMemberUsage(p: { organizationId: string; query: MemberUsageSummaryQuery }): Promise<MemberUsageSummary[]> {
  const { from, to } = p.query;
  if (to && from.getTime() >= to.getTime()) throw new AppError('bad_request', 'from must be before to');
  const prisma = await db();
  const rows = await prisma.usageRecord.groupBy({
    by: ['userId'],
    where: { accountId: p.organizationId, userId: { not: null }, status: { not: 'REFUSED' }, createdAt: { gte: from, ...(to ? { lt: to } : {}) } },
    _count: { _all: true },
    _sum: { costMicros: true, promptTokens: true, completionTokens: true },
  });
  return rows.map((r) => ({
    user_id: r.userId!,
    requests: r._count._all,
    spend: microsToUsd(r._sum.costMicros ?? 0n),
    total_tokens: (r._sum.promptTokens ?? 0) + (r._sum.completionTokens ?? 0),
  }));
}
