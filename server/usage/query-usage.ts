// Usage history: a page of generations (newest first, cursor over (createdAt, id)), or aggregates per UTC
// day or per model computed by the database (GROUP BY, date_trunc), never by loading rows into memory.
import { db, Prisma } from '@/server/db';
import { microsToUsd } from '@/server/ledger/money';
import { toUsageRecordDto, usageRecordSelect, type UsageRecordDto } from './usage-dto';
import { assertRange, decodeCursor, encodeCursor, type UsageQuery } from './usage-query';
import type { UsageScope } from './usage-scope';
import { usageSqlWhere, usageWhere } from './usage-where';

/** Groups are not paginated; a range wider than this many days (or models) is cut, newest / costliest first. */
export const MAX_GROUPS = 1000;

export interface UsagePage {
  data: UsageRecordDto[];
  next_cursor: string | null;
  visibility: UsageScope['visibility'];
}

export interface UsageGroup {
  day?: string;
  model?: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  cost: number;
  cost_micros: string;
  cache_savings: number;
  cache_savings_micros: string;
}

export interface UsageGroups {
  group_by: 'day' | 'model';
  data: UsageGroup[];
  next_cursor: null;
  visibility: UsageScope['visibility'];
}

export async function queryUsage(p: { scope: UsageScope; query: UsageQuery }): Promise<UsagePage | UsageGroups> {
  assertRange(p.query.from, p.query.to);
  if (!p.scope.accountId && !p.scope.userId) throw new Error('usage scope without an account or a user');
  return p.query.group_by ? groupUsage(p.scope, p.query, p.query.group_by) : listUsage(p.scope, p.query);
}

async function listUsage(scope: UsageScope, q: UsageQuery): Promise<UsagePage> {
  const prisma = await db();
  const cursor = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await prisma.usageRecord.findMany({
    where: {
      ...usageWhere(scope, q),
      ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: q.limit + 1,
    select: usageRecordSelect,
  });
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    data: page.map(toUsageRecordDto),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last) : null,
    visibility: scope.visibility,
  };
}

interface GroupRow {
  key: Date | string;
  requests: number;
  errors: number;
  prompt_tokens: bigint;
  completion_tokens: bigint;
  cached_tokens: bigint;
  reasoning_tokens: bigint;
  cost_micros: bigint;
  cache_savings_micros: bigint;
}

async function groupUsage(scope: UsageScope, q: UsageQuery, by: 'day' | 'model'): Promise<UsageGroups> {
  const prisma = await db();
  const key = by === 'day' ? Prisma.sql`date_trunc('day', "createdAt")` : Prisma.sql`"model"`;
  const order = by === 'day' ? Prisma.sql`1 DESC` : Prisma.sql`cost_micros DESC, 1 ASC`;
  const rows = await prisma.$queryRaw<GroupRow[]>`
    SELECT ${key} AS key,
           count(*)::int AS requests,
           count(*) FILTER (WHERE "status" = 'ERROR'::"UsageStatus")::int AS errors,
           COALESCE(sum("promptTokens"), 0)::bigint AS prompt_tokens,
           COALESCE(sum("completionTokens"), 0)::bigint AS completion_tokens,
           COALESCE(sum("cachedTokens"), 0)::bigint AS cached_tokens,
           COALESCE(sum("reasoningTokens"), 0)::bigint AS reasoning_tokens,
           COALESCE(sum("costMicros"), 0)::bigint AS cost_micros,
           COALESCE(sum("cacheSavingsMicros"), 0)::bigint AS cache_savings_micros
    FROM "UsageRecord"
    WHERE ${usageSqlWhere(scope, q)}
    GROUP BY 1
    ORDER BY ${order}
    LIMIT ${MAX_GROUPS}`;
  return {
    group_by: by,
    data: rows.map((r) => ({
      ...(by === 'day' ? { day: (r.key as Date).toISOString().slice(0, 10) } : { model: r.key as string }),
      requests: r.requests,
      errors: r.errors,
      prompt_tokens: Number(r.prompt_tokens),
      completion_tokens: Number(r.completion_tokens),
      cached_tokens: Number(r.cached_tokens),
      reasoning_tokens: Number(r.reasoning_tokens),
      cost: microsToUsd(r.cost_micros),
      cost_micros: r.cost_micros.toString(),
      cache_savings: microsToUsd(r.cache_savings_micros),
      cache_savings_micros: r.cache_savings_micros.toString(),
    })),
    next_cursor: null,
    visibility: scope.visibility,
  };
}
