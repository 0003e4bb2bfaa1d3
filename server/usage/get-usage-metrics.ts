// Usage metrics of an account: totals, a gap-free time series (hour or UTC day buckets) and a per-model
// breakdown (and per key, per member), each computed by the database in one statement: sums and counts with GROUP BY, buckets with
// date_trunc + generate_series, latency percentiles with percentile_cont (PostgreSQL and PGlite alike).
//   error rate      = generations with status error / all generations (client aborts are not errors)
//   cache hit ratio = cached prompt tokens / prompt tokens
//   cache savings   = UsageRecord.cacheSavingsMicros: what cached tokens would have cost at the full price
//   latency, ttft   = p50/p95 over successful generations (ttft: those that produced a first token)
import { z } from 'zod';
import { EARLIEST_TO_MESSAGE, isoInstant, MIN_INSTANT_MS, safeString } from '@/server/validation/fields';
import { db, Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';
import type { UsageScope } from './usage-scope';
import { usageSqlWhere } from './usage-where';

const instant = isoInstant();

export const metricsQuery = z.object({
  from: instant.optional().describe('Start (inclusive); default: 24 hours (interval=hour) or 30 days (interval=day) before `to`'),
  to: instant.optional().describe('End (exclusive); default: now'),
  interval: z.enum(['hour', 'day']).default('day').describe('Bucket size of the time series'),
  model: safeString().min(1).max(200).optional().describe('Only this model'),
});
export type MetricsQuery = z.infer<typeof metricsQuery>;

const HOUR = 3_600_000;
const MAX_BUCKETS = { hour: 24 * 31, day: 366 } as const;
const MAX_MODELS = 100;

const percentiles = (column: string) => ({
  p50: Prisma.raw(`percentile_cont(0.5) WITHIN GROUP (ORDER BY "${column}") FILTER (WHERE "status" = 'SUCCESS'::"UsageStatus")`),
  p95: Prisma.raw(`percentile_cont(0.95) WITHIN GROUP (ORDER BY "${column}") FILTER (WHERE "status" = 'SUCCESS'::"UsageStatus")`),
});
const latency = percentiles('latencyMs');
const ttft = percentiles('ttftMs');

/** The aggregate columns shared by totals, buckets and models. */
const STATS = Prisma.sql`
  count(*)::int AS requests,
  count(*) FILTER (WHERE "status" = 'ERROR'::"UsageStatus")::int AS errors,
  count(*) FILTER (WHERE "status" = 'ABORTED'::"UsageStatus")::int AS aborted,
  COALESCE(sum("costMicros"), 0)::bigint AS spend_micros,
  COALESCE(sum("promptTokens"), 0)::bigint AS prompt_tokens,
  COALESCE(sum("completionTokens"), 0)::bigint AS completion_tokens,
  COALESCE(sum("cachedTokens"), 0)::bigint AS cached_tokens,
  COALESCE(sum("reasoningTokens"), 0)::bigint AS reasoning_tokens,
  COALESCE(sum("cacheSavingsMicros"), 0)::bigint AS cache_savings_micros,
  ${latency.p50} AS latency_p50, ${latency.p95} AS latency_p95,
  ${ttft.p50} AS ttft_p50, ${ttft.p95} AS ttft_p95`;

interface StatsRow {
  requests: number;
  errors: number;
  aborted: number;
  spend_micros: bigint;
  prompt_tokens: bigint;
  completion_tokens: bigint;
  cached_tokens: bigint;
  reasoning_tokens: bigint;
  cache_savings_micros: bigint;
  latency_p50: number | null;
  latency_p95: number | null;
  ttft_p50: number | null;
  ttft_p95: number | null;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : 0);
const ms = (v: number | null) => (v === null || v === undefined ? null : Math.round(Number(v)));

function toStats(r: StatsRow) {
  const prompt = Number(r.prompt_tokens);
  const cached = Number(r.cached_tokens);
  return {
    requests: r.requests,
    errors: r.errors,
    aborted: r.aborted,
    error_rate: ratio(r.errors, r.requests),
    spend: microsToUsd(r.spend_micros),
    spend_micros: r.spend_micros.toString(),
    prompt_tokens: prompt,
    completion_tokens: Number(r.completion_tokens),
    cached_tokens: cached,
    reasoning_tokens: Number(r.reasoning_tokens),
    cache_hit_ratio: ratio(cached, prompt),
    cache_savings: microsToUsd(r.cache_savings_micros),
    cache_savings_micros: r.cache_savings_micros.toString(),
    latency_ms: { p50: ms(r.latency_p50), p95: ms(r.latency_p95) },
    ttft_ms: { p50: ms(r.ttft_p50), p95: ms(r.ttft_p95) },
  };
}
export type UsageStats = ReturnType<typeof toStats>;

export async function getUsageMetrics(p: { scope: UsageScope; query: MetricsQuery; now?: Date }) {
  const { interval } = p.query;
  const to = p.query.to ?? p.now ?? new Date();
  // The default span stops at the earliest time there is (0001-01-01): `to=0001-01-02` alone went to year 0,
  // which PostgreSQL cannot hold (a 500).
  const from = p.query.from ?? new Date(Math.max(MIN_INSTANT_MS, to.getTime() - (interval === 'hour' ? 24 * HOUR : 30 * 24 * HOUR)));
  if (from.getTime() >= to.getTime()) throw new AppError('bad_request', p.query.from ? 'from must be before to' : EARLIEST_TO_MESSAGE);
  const buckets = Math.ceil((to.getTime() - from.getTime()) / (interval === 'hour' ? HOUR : 24 * HOUR));
  if (buckets > MAX_BUCKETS[interval]) {
    throw new AppError('bad_request', `The range holds ${buckets} ${interval}s; at most ${MAX_BUCKETS[interval]} are allowed. Narrow from/to or use a larger interval.`);
  }
  const where = usageSqlWhere(p.scope, { from, to, model: p.query.model });
  const prisma = await db();
  const unit = interval;
  const step = `1 ${interval}`;

  const [totals] = await prisma.$queryRaw<StatsRow[]>`SELECT ${STATS} FROM "UsageRecord" WHERE ${where}`;
  const series = await prisma.$queryRaw<(StatsRow & { bucket: Date })[]>`
    WITH agg AS (
      SELECT date_trunc(${unit}, "createdAt") AS bucket, ${STATS}
      FROM "UsageRecord" WHERE ${where} GROUP BY 1
    )
    SELECT s.bucket,
           COALESCE(agg.requests, 0) AS requests, COALESCE(agg.errors, 0) AS errors, COALESCE(agg.aborted, 0) AS aborted,
           COALESCE(agg.spend_micros, 0) AS spend_micros, COALESCE(agg.prompt_tokens, 0) AS prompt_tokens,
           COALESCE(agg.completion_tokens, 0) AS completion_tokens, COALESCE(agg.cached_tokens, 0) AS cached_tokens,
           COALESCE(agg.reasoning_tokens, 0) AS reasoning_tokens, COALESCE(agg.cache_savings_micros, 0) AS cache_savings_micros,
           agg.latency_p50, agg.latency_p95, agg.ttft_p50, agg.ttft_p95
    FROM generate_series(date_trunc(${unit}, ${from}::timestamp), ${to}::timestamp - interval '1 millisecond', ${step}::interval) AS s(bucket)
    LEFT JOIN agg ON agg.bucket = s.bucket
    ORDER BY s.bucket`;
  const models = await prisma.$queryRaw<(StatsRow & { model: string })[]>`
    SELECT "model", ${STATS} FROM "UsageRecord" WHERE ${where}
    GROUP BY "model" ORDER BY spend_micros DESC, requests DESC, "model" LIMIT ${MAX_MODELS}`;

  const [keys, members] = await Promise.all([breakdown(where, Prisma.sql`"apiKeyId"`), breakdown(where, Prisma.sql`"userId"`)]);

  return {
    from: from.toISOString(),
    to: to.toISOString(),
    interval,
    visibility: p.scope.visibility,
    totals: toStats(totals),
    series: series.map((r) => ({ bucket: r.bucket.toISOString(), ...toStats(r) })),
    by_model: models.map((r) => ({ model: r.model, ...toStats(r) })),
    // Who spent it: per API key (null: the console or an account token) and per member (null: a deleted user).
    by_key: keys.map(({ id, ...r }) => ({ api_key_id: id, ...r })),
    by_member: members.map(({ id, ...r }) => ({ user_id: id, ...r })),
  };
}

/** Requests, spend and tokens per value of `column` (the costliest first); lighter than STATS (no percentiles). */
async function breakdown(where: Prisma.Sql, column: Prisma.Sql) {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ id: string | null; requests: number; spend_micros: bigint; tokens: bigint }[]>`
    SELECT ${column} AS id, count(*)::int AS requests, COALESCE(sum("costMicros"), 0)::bigint AS spend_micros,
           COALESCE(sum("promptTokens" + "completionTokens"), 0)::bigint AS tokens
    FROM "UsageRecord" WHERE ${where}
    GROUP BY 1 ORDER BY spend_micros DESC, requests DESC, 1 LIMIT ${MAX_MODELS}`;
  return rows.map((r) => ({ id: r.id, requests: r.requests, spend: microsToUsd(r.spend_micros), spend_micros: r.spend_micros.toString(), total_tokens: Number(r.tokens) }));
}
export type UsageMetrics = Awaited<ReturnType<typeof getUsageMetrics>>;
