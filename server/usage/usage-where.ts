// The one translation of (scope, filters) into a WHERE clause, as a Prisma filter for listing and as SQL
// for the aggregates (GROUP BY, percentiles), so the list, the groups and the metrics always agree on
// which rows they cover. Requests refused at admission (status REFUSED, never charged) are usage of
// nothing: the aggregates always leave them out, and a list shows them only when asked to (the activity
// log: include_refused, or status=refused).
import { Prisma } from '@/server/db';
import type { UsageScope } from './usage-scope';
import type { UsageQuery } from './usage-query';

export type UsageFilters = Pick<UsageQuery, 'from' | 'to' | 'model' | 'api_key_id' | 'status' | 'include_refused'>;

const STATUS = { success: 'SUCCESS', error: 'ERROR', aborted: 'ABORTED', refused: 'REFUSED' } as const;

function statusWhere(f: UsageFilters) {
  if (f.status) return { status: STATUS[f.status] };
  return f.include_refused ? {} : { status: { not: 'REFUSED' as const } };
}

export function usageWhere(scope: UsageScope, f: UsageFilters) {
  return {
    ...(scope.accountId ? { accountId: scope.accountId } : {}),
    ...(scope.userId ? { userId: scope.userId } : {}),
    ...(f.model ? { model: f.model } : {}),
    ...(f.api_key_id ? { apiKeyId: f.api_key_id } : {}),
    ...statusWhere(f),
    ...(f.from || f.to ? { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
  };
}

export function usageSqlWhere(scope: UsageScope, f: UsageFilters): Prisma.Sql {
  const c: Prisma.Sql[] = [];
  if (scope.accountId) c.push(Prisma.sql`"accountId" = ${scope.accountId}`);
  if (scope.userId) c.push(Prisma.sql`"userId" = ${scope.userId}`);
  if (f.model) c.push(Prisma.sql`"model" = ${f.model}`);
  if (f.api_key_id) c.push(Prisma.sql`"apiKeyId" = ${f.api_key_id}`);
  // Aggregates: never refused requests, whatever the filters.
  c.push(Prisma.sql`"status" <> 'REFUSED'::"UsageStatus"`);
  if (f.status) c.push(Prisma.sql`"status" = ${STATUS[f.status]}::"UsageStatus"`);
  if (f.from) c.push(Prisma.sql`"createdAt" >= ${f.from}`);
  if (f.to) c.push(Prisma.sql`"createdAt" < ${f.to}`);
  // A scope always names an account or a user; never fall through to every row of the table.
  if (!scope.accountId && !scope.userId) throw new Error('usage scope without an account or a user');
  return Prisma.join(c, ' AND ');
}
