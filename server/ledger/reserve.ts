// Reserve, then settle. Before a provider is called, the worst-case cost is held against the account (and
// the key's spend window) atomically. The rules live here once, in RESERVE_SQL, for every caller: an
// authenticated principal (reserveCredits), an API key known only by its hash (reserve-for-api-key.ts: the
// key is authenticated in the same statement) and a group of API-key admissions at once
// (key-admission-batcher.ts). Whatever the caller, an admission costs ONE statement (one round trip, the
// account's row lock held only while it runs, autocommit).
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

const DEFAULT_TTL_MS = 15 * 60_000;

// The rules, once:
//   - An API key is found by its hash (authenticating it) or by its id (the key of a principal authenticated
//     before); either way it must exist, not be deleted or expired, and allow the model. No key: the
//     account alone.
//   - Account: available − amount ≥ −credit floor (paid + promo − reserved − amount ≥ −creditFloorMicros).
//   - Key with a credit limit: the spend in its current window + amount ≤ the limit; the window restarts at
//     the start of the UTC day, ISO week or month per the key's reset (NEVER: the epoch, it never restarts).
//   - Several requests are decided per account: all of an account's requests are admitted together when the
//     account covers their sum and each of its keys' windows covers theirs, or none of them (the batcher
//     then decides those one at a time, in order; for one request this is the whole decision).
//   - Locks: each check locks its rows first (a locking SELECT re-evaluates its condition on the latest row
//     version, as a conditional UPDATE would), accounts then keys, each in id order, the same order as
//     settlement (Account, then ApiKey), so concurrent statements cannot deadlock. FOR NO KEY UPDATE is the
//     lock an UPDATE of non-key columns takes: it does not conflict with the key-share locks that inserts of
//     child rows (reservations, ledger entries, grants) hold on the account.
//   - Writes only for requests that passed every check: the account's hold, the key's window, and a
//     Reservation row naming who and what (the sweeper needs it to record an interrupted generation).
// Requests arrive as one JSON array (the embedded database's client passes no array parameters).
const RESERVE_SQL = `
  WITH input AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS x(ord int, h text, kid text, acct text, uid text, tok text, model text, al text[], provider text, g text, amount bigint, rid text, exp timestamp(3))
  ), req AS MATERIALIZED (
    SELECT i.*, k.id, k."keyHash", COALESCE(i.uid, k."userId") AS "userId", COALESCE(i.acct, k."accountId") AS "accountId",
           k."deletedAt" IS NOT NULL AS deleted, (k."expiresAt" IS NOT NULL AND k."expiresAt" <= $2::timestamp(3)) AS expired,
           k."limitReset"::text AS "limitReset", k."allowedModels", k."creditLimitMicros" IS NOT NULL AS "hasCreditLimit",
           (k.id IS NULL OR cardinality(k."allowedModels") = 0 OR i.model = ANY (k."allowedModels") OR i.al && k."allowedModels") AS "modelAllowed",
           CASE k."limitReset"::text WHEN 'DAILY' THEN $3::timestamp(3) WHEN 'WEEKLY' THEN $4::timestamp(3)
                                     WHEN 'MONTHLY' THEN $5::timestamp(3) ELSE '1970-01-01'::timestamp(3) END AS "windowStart"
    FROM input i LEFT JOIN LATERAL (
      SELECT * FROM "ApiKey" WHERE "keyHash" = i.h UNION ALL SELECT * FROM "ApiKey" WHERE id = i.kid
    ) k ON true
  ), usable AS MATERIALIZED (
    SELECT * FROM req
    WHERE "accountId" IS NOT NULL
      AND ((h IS NULL AND kid IS NULL) OR (id IS NOT NULL AND NOT deleted AND NOT expired AND "modelAllowed"))
  ), acct AS MATERIALIZED (
    SELECT a.id FROM "Account" a
    JOIN (SELECT "accountId", sum(amount) AS total FROM usable GROUP BY "accountId") s ON s."accountId" = a.id
    WHERE a."paidMicros" + a."promoMicros" - a."reservedMicros" - s.total >= -a."creditFloorMicros"
    ORDER BY a.id
    FOR NO KEY UPDATE OF a
  ), k AS MATERIALIZED (
    SELECT k.id FROM "ApiKey" k
    JOIN (SELECT id, sum(amount) AS total, max("windowStart") AS ws FROM usable
          WHERE id IS NOT NULL AND "accountId" IN (SELECT id FROM acct) GROUP BY id) s ON s.id = k.id
    WHERE k."creditLimitMicros" IS NULL
       OR (CASE WHEN k."windowStartedAt" < s.ws THEN 0 ELSE k."windowSpentMicros" END) + s.total <= k."creditLimitMicros"
    ORDER BY k.id
    FOR NO KEY UPDATE OF k
  ), ok AS MATERIALIZED (
    SELECT u.* FROM usable u
    WHERE u."accountId" IN (SELECT id FROM acct)
      AND NOT EXISTS (SELECT 1 FROM usable v WHERE v."accountId" = u."accountId" AND v.id IS NOT NULL AND v.id NOT IN (SELECT id FROM k))
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" + s.total
    FROM (SELECT "accountId", sum(amount) AS total FROM ok GROUP BY "accountId") s
    WHERE "Account".id = s."accountId"
    RETURNING "Account".id, "paidMicros" + "promoMicros" - "reservedMicros" + "creditFloorMicros" AS headroom
  ), ku AS (
    UPDATE "ApiKey" SET
      "windowSpentMicros" = CASE WHEN "windowStartedAt" < s.ws THEN s.total ELSE "windowSpentMicros" + s.total END,
      "windowStartedAt" = CASE WHEN "windowStartedAt" < s.ws THEN s.ws ELSE "windowStartedAt" END,
      "lastUsedAt" = $2::timestamp(3)
    FROM (SELECT id, sum(amount) AS total, max("windowStart") AS ws FROM ok WHERE id IS NOT NULL GROUP BY id) s
    WHERE "ApiKey".id = s.id
    RETURNING "ApiKey".id, "ApiKey"."creditLimitMicros" - "ApiKey"."windowSpentMicros" AS headroom
  ), r AS (
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "userId", "authTokenId", model, provider, "generationId", "amountMicros", "expiresAt")
    SELECT rid, "accountId", id, "userId", tok, model, provider, g, amount, exp FROM ok
    RETURNING id, "generationId"
  )
  SELECT req.ord, req.id, req."keyHash", req."userId", req."accountId", req.deleted, req.expired, req."limitReset",
         req."allowedModels", req."hasCreditLimit", req."modelAllowed",
         COALESCE(req."accountId" IN (SELECT id FROM acct), false) AS "accountOk", r.id AS "reservationId",
         CASE WHEN r.id IS NOT NULL THEN LEAST(acc.headroom, kh.headroom)::text END AS "headroomMicros"
  FROM req LEFT JOIN r ON r."generationId" = req.g
  LEFT JOIN a AS acc ON acc.id = req."accountId" LEFT JOIN ku AS kh ON kh.id = req.id`;

/** One request for credit. Give `keyHash` (an API key to authenticate), or `accountId` with an optional `keyId`. */
export interface ReservationRequest {
  /** SHA-256 hash of a well-formed API key (hashSecret): the key is authenticated by this statement. */
  keyHash?: string;
  /** The API key of a principal authenticated before (its checks and spend window still apply). */
  keyId?: string;
  /** The account to hold credit on; with keyHash, the key's. */
  accountId?: string;
  /** Recorded on the reservation; with keyHash, the key's owner. */
  userId?: string;
  authTokenId?: string;
  /** The catalog model id, checked against the key's allowed models and recorded on the reservation. */
  model: string;
  /** The model's other names: a key allowed one of them may use it (keys made before a model was renamed). */
  modelAliases?: readonly string[];
  provider: string;
  generationId: string;
  amountMicros: bigint;
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
}

/** What the statement decided for one request. */
export interface ReservationRow {
  /** The API key's id; null when none was given or none was found. */
  id: string | null;
  keyHash: string | null;
  userId: string;
  accountId: string;
  deleted: boolean;
  expired: boolean;
  limitReset: LimitReset;
  allowedModels: string[] | null;
  hasCreditLimit: boolean;
  modelAllowed: boolean;
  /** The account could cover what was asked of it (false: the 402 is the account's, else the key's). */
  accountOk: boolean;
  reservationId: string | null;
  /** What the account (and the key's spend window, when it has a limit) can still cover after this reservation. */
  headroomMicros: string | null;
}

/** Decides `requests` in one statement; the result's i-th row answers requests[i]. */
/**
 * PostgreSQL may abort this statement as a deadlock victim (40P01) when a concurrent settlement holds an account
 * row it re-locks (found by the ledger property test on PostgreSQL, seed -2122087020). The statement is atomic:
 * aborted, it changed nothing, so it is run again (up to 3 times) instead of failing the request.
 */
async function withDeadlockRetry<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    }
  }
}

export async function reserveInOneStatement(requests: readonly ReservationRequest[], now: Date): Promise<ReservationRow[]> {
  const items = requests.map((r, ord) => ({
    ord,
    h: r.keyHash,
    kid: r.keyId,
    acct: r.accountId,
    uid: r.userId,
    tok: r.authTokenId,
    model: r.model,
    al: r.modelAliases ?? [],
    provider: r.provider,
    g: r.generationId,
    amount: r.amountMicros.toString(),
    rid: newRowId(),
    exp: ts(new Date(now.getTime() + (r.ttlMs ?? DEFAULT_TTL_MS))),
  }));
  const params = [JSON.stringify(items), ts(now), ts(currentWindowStart('DAILY', now)), ts(currentWindowStart('WEEKLY', now)), ts(currentWindowStart('MONTHLY', now))];
  const { rows } = await withDeadlockRetry(async () => (await database()).sql.query<ReservationRow & { ord: number }>(RESERVE_SQL, params, { name: 'sb_reserve' }));
  const byOrder: ReservationRow[] = new Array(requests.length);
  for (const row of rows) byOrder[row.ord] = row;
  return byOrder;
}

export interface ReserveInput {
  accountId: string;
  generationId: string;
  amountMicros: bigint;
  /** The principal's API key: its checks and spend window apply as well. */
  apiKey?: { id: string };
  userId?: string;
  authTokenId?: string;
  model?: string;
  modelAliases?: readonly string[];
  provider?: string;
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
  now?: Date;
}

/**
 * Holds the worst case for an authenticated principal. Throws 402 when the account or the key's window cannot
 * cover it (and 401/403 when the key was deleted or expired meanwhile, or may not use the model).
 */
export async function reserveCredits(input: ReserveInput): Promise<{ reservationId: string }> {
  const [row] = await reserveInOneStatement(
    [{
      accountId: input.accountId,
      keyId: input.apiKey?.id,
      userId: input.userId,
      authTokenId: input.authTokenId,
      model: input.model ?? '',
      modelAliases: input.modelAliases,
      provider: input.provider ?? '',
      generationId: input.generationId,
      amountMicros: input.amountMicros,
      ttlMs: input.ttlMs,
    }],
    input.now ?? new Date(),
  );
  if (row?.reservationId) return { reservationId: row.reservationId };
  if (input.apiKey) {
    if (!row?.id || row.deleted) throw new AppError('unauthorized', 'Invalid API key');
    if (row.expired) throw new AppError('unauthorized', 'This API key has expired');
    if (!row.modelAllowed) throw new AppError('forbidden', `This API key may not use ${input.model}`, { model: input.model });
  }
  return refuseReservation({ accountId: input.accountId, apiKeyId: input.apiKey?.id, amountMicros: input.amountMicros }, !!row?.accountOk);
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
