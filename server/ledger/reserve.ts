// Reserve, then settle. Before a provider is called, the worst-case cost is held against the account (and
// the key's spend cap) atomically, in one SQL statement; each check runs on the locked, latest row, so
// concurrent requests cannot both pass a check that only one of them fits (PostgreSQL re-evaluates the
// WHERE clause of a locking SELECT on the latest row version; PGlite runs statements one at a time).
import { randomFillSync } from 'node:crypto';
import { database, db } from '@/server/db';
import { AppError } from '@/server/errors';
import { formatUsd, microsToUsd } from './money';

export type LimitReset = 'NEVER' | 'DAILY' | 'WEEKLY' | 'MONTHLY';

/** Start of the key's current spend window (UTC). NEVER: the epoch, so the window never rolls over. */
export function currentWindowStart(reset: LimitReset, now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (reset) {
    case 'DAILY':
      return d;
    case 'WEEKLY': {
      const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
      return new Date(d.getTime() - dow * 86_400_000);
    }
    case 'MONTHLY':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    default:
      return new Date(0);
  }
}

export interface ReserveInput {
  accountId: string;
  generationId: string;
  amountMicros: bigint;
  apiKey?: { id: string; limitReset: LimitReset };
  userId?: string;
  authTokenId?: string;
  model?: string;
  provider?: string;
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
  now?: Date;
}

// The whole reservation is ONE statement, so it costs one round trip and holds the account's row lock only
// while the statement runs (autocommit), not across a client-driven transaction. The two checks lock their
// rows first (a locking SELECT re-evaluates the condition on the latest row version, exactly like the
// conditional UPDATE it replaces), in the same order as settlement (Account, then ApiKey); the writes happen
// only when every check passed, so a refused request changes nothing. FOR NO KEY UPDATE is the lock an
// UPDATE of non-key columns takes: it does not conflict with the key-share locks that inserts of child rows
// (reservations, ledger entries, grants) hold on the account, so it deadlocks no more than the UPDATE did.
const RESERVE_SQL = `
  WITH acct AS MATERIALIZED (
    SELECT id FROM "Account"
    WHERE id = $1 AND "paidMicros" + "promoMicros" - "reservedMicros" - $2::bigint >= -"creditFloorMicros"
    FOR NO KEY UPDATE
  ), k AS MATERIALIZED (
    SELECT id FROM "ApiKey"
    WHERE id = $3::text AND EXISTS (SELECT 1 FROM acct)
      AND ("creditLimitMicros" IS NULL
           OR (CASE WHEN "windowStartedAt" < $4::timestamp(3) THEN 0 ELSE "windowSpentMicros" END) + $2::bigint <= "creditLimitMicros")
    FOR NO KEY UPDATE
  ), ok AS MATERIALIZED (
    SELECT 1 FROM acct WHERE $3::text IS NULL OR EXISTS (SELECT 1 FROM k)
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" + $2::bigint
    WHERE id = $1 AND EXISTS (SELECT 1 FROM ok)
    RETURNING id
  ), ku AS (
    UPDATE "ApiKey" SET
      "windowSpentMicros" = CASE WHEN "windowStartedAt" < $4::timestamp(3) THEN $2::bigint ELSE "windowSpentMicros" + $2::bigint END,
      "windowStartedAt" = CASE WHEN "windowStartedAt" < $4::timestamp(3) THEN $4::timestamp(3) ELSE "windowStartedAt" END,
      "lastUsedAt" = $5::timestamp(3)
    WHERE id = $3::text AND EXISTS (SELECT 1 FROM ok)
    RETURNING id
  ), r AS (
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "userId", "authTokenId", model, provider, "generationId", "amountMicros", "expiresAt")
    SELECT $6, $1, $3::text, $7, $8, $9, $10, $11, $2::bigint, $12::timestamp(3) WHERE EXISTS (SELECT 1 FROM ok)
    RETURNING id
  )
  SELECT EXISTS (SELECT 1 FROM acct) AS "accountOk", (SELECT id FROM r) AS "reservationId"`;

const idPool = Buffer.allocUnsafe(4096);
let idPoolAt = idPool.length;

/** A new row id in the shape of Prisma's cuid(): "c", the time in base 36, 64 random bits. */
export function newRowId(): string {
  if (idPoolAt + 8 > idPool.length) {
    randomFillSync(idPool);
    idPoolAt = 0;
  }
  idPoolAt += 8;
  return 'c' + Date.now().toString(36) + idPool.toString('hex', idPoolAt - 8, idPoolAt);
}

// Timestamps go to SQL as UTC ISO strings cast to timestamp(3): the columns hold UTC wall time (Prisma's
// convention), and a timestamp without time zone ignores the "Z", whatever the process's time zone.
export const ts = (d: Date) => d.toISOString();

export async function reserveCredits(input: ReserveInput): Promise<{ reservationId: string }> {
  const now = input.now ?? new Date();
  const amount = input.amountMicros;
  const ttl = input.ttlMs ?? 15 * 60_000;
  const windowStart = input.apiKey ? currentWindowStart(input.apiKey.limitReset, now) : now;
  const { rows } = await (await database()).sql.query<{ accountOk: boolean; reservationId: string | null }>(RESERVE_SQL, [
    input.accountId,
    amount.toString(),
    input.apiKey?.id ?? null,
    ts(windowStart),
    ts(now),
    newRowId(),
    input.userId ?? null,
    input.authTokenId ?? null,
    input.model ?? '',
    input.provider ?? '',
    input.generationId,
    ts(new Date(now.getTime() + ttl)),
  ], { name: 'sb_reserve' });
  const row = rows[0];
  if (row?.reservationId) return { reservationId: row.reservationId };
  return refuseReservation({ accountId: input.accountId, apiKeyId: input.apiKey?.id, amountMicros: amount }, !!row?.accountOk);
}

/** The 402 for a refused reservation (rare): reads what the message needs, outside the hot path. */
export async function refuseReservation(r: { accountId: string; apiKeyId?: string; amountMicros: bigint }, accountOk: boolean): Promise<never> {
  const amount = r.amountMicros;
  const prisma = await db();
  if (!accountOk || !r.apiKeyId) {
    const a = await prisma.account.findUnique({ where: { id: r.accountId }, select: { paidMicros: true, promoMicros: true, reservedMicros: true } });
    if (!a) throw new AppError('not_found', 'Account not found');
    const available = a.paidMicros + a.promoMicros - a.reservedMicros;
    throw new AppError(
      'payment_required',
      `Insufficient credits: this request may cost up to ${formatUsd(amount)} and ${formatUsd(available > 0n ? available : 0n)} is available. Add credits to continue.`,
      { balance: microsToUsd(a.paidMicros + a.promoMicros), available: microsToUsd(available), required: microsToUsd(amount), add_credits_url: '/billing' },
    );
  }
  const k = await prisma.apiKey.findUnique({ where: { id: r.apiKeyId }, select: { creditLimitMicros: true, limitReset: true } });
  throw new AppError(
    'payment_required',
    `This API key's credit limit (${formatUsd(k?.creditLimitMicros ?? 0n)}${k && k.limitReset !== 'NEVER' ? ` per ${k.limitReset.toLowerCase().replace('ly', '').replace('dai', 'day')}` : ''}) would be exceeded by this request. Raise the key's limit or use another key.`,
    { reason: 'key_limit', key_limit: microsToUsd(k?.creditLimitMicros ?? 0n), required: microsToUsd(amount) },
  );
}
