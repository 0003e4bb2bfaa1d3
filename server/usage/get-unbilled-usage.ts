// The operator's loss from upstreams that bill more than the customer may be charged (a charge never exceeds
// the request's reservation: see gateway/outcome.ts chargeFor), per provider and model, for the CLI
// (`npm run cli -- usage:unbilled`). Operators use it to find providers that ignore max_tokens.
import { db } from '@/server/db';

export interface UnbilledUsage {
  since: string;
  total_micros: string;
  generations: number;
  by_model: { provider: string; model: string; generations: number; unbilled_micros: string }[];
}

export async function getUnbilledUsage(p: { since: Date }): Promise<UnbilledUsage> {
  const prisma = await db();
  const rows = await prisma.$queryRaw<{ provider: string; model: string; n: bigint; micros: bigint }[]>`
    SELECT provider, model, count(*)::bigint AS n, sum("unbilledMicros")::bigint AS micros
    FROM "UsageRecord"
    WHERE "unbilledMicros" > 0 AND "createdAt" >= ${p.since}
    GROUP BY provider, model
    ORDER BY micros DESC, provider, model`;
  return {
    since: p.since.toISOString(),
    total_micros: rows.reduce((sum, r) => sum + r.micros, 0n).toString(),
    generations: rows.reduce((sum, r) => sum + Number(r.n), 0),
    by_model: rows.map((r) => ({ provider: r.provider, model: r.model, generations: Number(r.n), unbilled_micros: r.micros.toString() })),
  };
}
