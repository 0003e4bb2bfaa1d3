// Instance-wide usage for operators (GET /api/v1/admin/usage): requests, tokens, what was charged, what it
// cost us and the margin, grouped by model, provider or account, in one SQL aggregate over UsageRecord.
// Provider cost per record: 0 for BYOK (the account's own key pays the provider); else what the provider
// reported (providerCostMicros) when it did; else our list price for what was served (costMicros +
// unbilledMicros), i.e. we assume operator keys are billed at the list price we publish.
import { z } from 'zod';
import { db, Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { parseWith } from '@/server/http/api-route';
import { microsToUsd } from '@/server/ledger/money';
import { coercedInstant, EARLIEST_TO_MESSAGE, MIN_INSTANT_MS } from '@/server/validation/fields';

const DAY_MS = 86_400_000;

export const adminUsageQuerySchema = z.object({
  from: coercedInstant().optional().describe('Start (inclusive), ISO 8601; default 30 days before `to`'),
  to: coercedInstant().optional().describe('End (exclusive), ISO 8601; default now'),
  group_by: z.enum(['model', 'provider', 'account']).default('model'),
});

const GROUP_COLUMN = { model: Prisma.sql`"model"`, provider: Prisma.sql`"provider"`, account: Prisma.sql`"accountId"` } as const;

interface Row {
  key: string;
  requests: bigint;
  promptTokens: bigint;
  completionTokens: bigint;
  chargedMicros: bigint;
  providerCostMicros: bigint;
}

export async function adminUsage(raw: unknown, now = new Date()) {
  const q = parseWith(adminUsageQuerySchema, raw);
  const to = q.to ?? now;
  // The default span stops at the earliest time there is (0001-01-01), never year 0 (PostgreSQL's 500).
  const from = q.from ?? new Date(Math.max(MIN_INSTANT_MS, to.getTime() - 30 * DAY_MS));
  if (from >= to) throw new AppError('bad_request', q.from ? '`from` must be before `to`' : EARLIEST_TO_MESSAGE);
  const col = GROUP_COLUMN[q.group_by];
  const prisma = await db();
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT ${col} AS key,
           count(*)::bigint AS requests,
           coalesce(sum("promptTokens"), 0)::bigint AS "promptTokens",
           coalesce(sum("completionTokens"), 0)::bigint AS "completionTokens",
           coalesce(sum("costMicros"), 0)::bigint AS "chargedMicros",
           coalesce(sum(CASE WHEN byok THEN 0 ELSE coalesce("providerCostMicros", "costMicros" + "unbilledMicros") END), 0)::bigint AS "providerCostMicros"
    FROM "UsageRecord"
    WHERE "createdAt" >= ${from} AND "createdAt" < ${to} AND "status" <> 'REFUSED'::"UsageStatus"
    GROUP BY 1
    ORDER BY "chargedMicros" DESC, 1 ASC`;
  const totals = { requests: 0n, promptTokens: 0n, completionTokens: 0n, chargedMicros: 0n, providerCostMicros: 0n };
  const dto = (r: Omit<Row, 'key'>) => {
    const margin = BigInt(r.chargedMicros) - BigInt(r.providerCostMicros);
    return {
      requests: Number(r.requests),
      prompt_tokens: Number(r.promptTokens),
      completion_tokens: Number(r.completionTokens),
      total_tokens: Number(r.promptTokens) + Number(r.completionTokens),
      charged: microsToUsd(BigInt(r.chargedMicros)),
      charged_micros: BigInt(r.chargedMicros).toString(),
      provider_cost: microsToUsd(BigInt(r.providerCostMicros)),
      provider_cost_micros: BigInt(r.providerCostMicros).toString(),
      margin: microsToUsd(margin),
      margin_micros: margin.toString(),
    };
  };
  const data = rows.map((r) => {
    for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += BigInt(r[k]);
    return { [q.group_by]: r.key, ...dto(r) };
  });
  return { from: from.toISOString(), to: to.toISOString(), group_by: q.group_by, data, totals: dto(totals) };
}
