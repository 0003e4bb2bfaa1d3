// The chat path's admission in ONE statement for an API key: authenticate the key by its hash (no cache: a
// deleted or expired key fails on the very next request), check that it may use the model, and reserve the
// worst-case cost against its account and its spend window — the same checks and writes as
// authenticateBearer followed by reserveCredits, in one round trip instead of two.
//
// Nothing is written unless every check passed (the writes are conditional on `ok`). The checks that
// guard money lock their rows first (a locking SELECT re-evaluates its condition on the latest row
// version), Account before ApiKey, as in reserve.ts and settlement.
import { database } from '@/server/db';
import { AppError } from '@/server/errors';
import type { Principal } from '@/server/auth/authenticate-bearer';
import { secretsEqual } from '@/server/auth/secret-token';
import { currentWindowStart, newRowId, refuseReservation, ts, type LimitReset } from './reserve';

const ADMIT_KEY_SQL = `
  WITH key AS MATERIALIZED (
    SELECT id, "keyHash", "userId", "accountId", "deletedAt" IS NOT NULL AS deleted,
           ("expiresAt" IS NOT NULL AND "expiresAt" <= $2::timestamp(3)) AS expired,
           "limitReset"::text AS "limitReset", "allowedModels", "creditLimitMicros" IS NOT NULL AS "hasCreditLimit",
           (cardinality("allowedModels") = 0 OR $3::text = ANY ("allowedModels")) AS "modelAllowed",
           CASE "limitReset"::text WHEN 'DAILY' THEN $4::timestamp(3) WHEN 'WEEKLY' THEN $5::timestamp(3)
                                  WHEN 'MONTHLY' THEN $6::timestamp(3) ELSE '1970-01-01'::timestamp(3) END AS "windowStart"
    FROM "ApiKey" WHERE "keyHash" = $1
  ), usable AS MATERIALIZED (
    SELECT * FROM key WHERE NOT deleted AND NOT expired AND "modelAllowed"
  ), acct AS MATERIALIZED (
    SELECT a.id FROM "Account" a JOIN usable u ON a.id = u."accountId"
    WHERE a."paidMicros" + a."promoMicros" - a."reservedMicros" - $7::bigint >= -a."creditFloorMicros"
    FOR NO KEY UPDATE OF a
  ), k AS MATERIALIZED (
    SELECT k.id FROM "ApiKey" k JOIN usable u ON k.id = u.id
    WHERE EXISTS (SELECT 1 FROM acct)
      AND (k."creditLimitMicros" IS NULL
           OR (CASE WHEN k."windowStartedAt" < u."windowStart" THEN 0 ELSE k."windowSpentMicros" END) + $7::bigint <= k."creditLimitMicros")
    FOR NO KEY UPDATE OF k
  ), ok AS MATERIALIZED (
    SELECT u.* FROM usable u WHERE EXISTS (SELECT 1 FROM k)
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" + $7::bigint
    WHERE id = (SELECT "accountId" FROM ok)
    RETURNING id, "paidMicros" + "promoMicros" - "reservedMicros" + "creditFloorMicros" AS headroom
  ), ku AS (
    UPDATE "ApiKey" SET
      "windowSpentMicros" = CASE WHEN "windowStartedAt" < ok."windowStart" THEN $7::bigint ELSE "windowSpentMicros" + $7::bigint END,
      "windowStartedAt" = CASE WHEN "windowStartedAt" < ok."windowStart" THEN ok."windowStart" ELSE "windowStartedAt" END,
      "lastUsedAt" = $2::timestamp(3)
    FROM ok WHERE "ApiKey".id = ok.id
    RETURNING "ApiKey".id, "ApiKey"."creditLimitMicros" - "ApiKey"."windowSpentMicros" AS headroom
  ), r AS (
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "userId", model, provider, "generationId", "amountMicros", "expiresAt")
    SELECT $8, ok."accountId", ok.id, ok."userId", $3, $9, $10, $7::bigint, $11::timestamp(3) FROM ok
    RETURNING id
  )
  SELECT key.*, EXISTS (SELECT 1 FROM acct) AS "accountOk", (SELECT id FROM r) AS "reservationId",
         LEAST((SELECT headroom FROM a), (SELECT headroom FROM ku))::text AS "headroomMicros"
  FROM (SELECT 1) AS one LEFT JOIN key ON true`;

// The same for many requests at once (see the batching below). Per account, every request is admitted
// together when the account can cover their sum and each of its keys' windows can cover theirs; otherwise
// nothing of that account is written here and each of its requests goes through ADMIT_KEY_SQL alone, in
// order (exactly what one-at-a-time admission would have decided). Accounts, then keys, are locked in id
// order, so concurrent batches cannot deadlock each other.
const ADMIT_KEYS_BATCH_SQL = `
  WITH input AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS x(ord int, h text, model text, provider text, g text, amount bigint, rid text, exp timestamp(3))
  ), key AS MATERIALIZED (
    SELECT i.*, k.id, k."keyHash", k."userId", k."accountId", k."deletedAt" IS NOT NULL AS deleted,
           (k."expiresAt" IS NOT NULL AND k."expiresAt" <= $2::timestamp(3)) AS expired,
           k."limitReset"::text AS "limitReset", k."allowedModels", k."creditLimitMicros" IS NOT NULL AS "hasCreditLimit",
           (cardinality(k."allowedModels") = 0 OR i.model = ANY (k."allowedModels")) AS "modelAllowed",
           CASE k."limitReset"::text WHEN 'DAILY' THEN $3::timestamp(3) WHEN 'WEEKLY' THEN $4::timestamp(3)
                                     WHEN 'MONTHLY' THEN $5::timestamp(3) ELSE '1970-01-01'::timestamp(3) END AS "windowStart"
    FROM input i LEFT JOIN "ApiKey" k ON k."keyHash" = i.h
  ), usable AS MATERIALIZED (
    SELECT * FROM key WHERE id IS NOT NULL AND NOT deleted AND NOT expired AND "modelAllowed"
  ), acct AS MATERIALIZED (
    SELECT a.id FROM "Account" a
    JOIN (SELECT "accountId", sum(amount) AS total FROM usable GROUP BY "accountId") s ON s."accountId" = a.id
    WHERE a."paidMicros" + a."promoMicros" - a."reservedMicros" - s.total >= -a."creditFloorMicros"
    ORDER BY a.id
    FOR NO KEY UPDATE OF a
  ), k AS MATERIALIZED (
    SELECT k.id FROM "ApiKey" k
    JOIN (SELECT id, sum(amount) AS total, max("windowStart") AS ws FROM usable WHERE "accountId" IN (SELECT id FROM acct) GROUP BY id) s ON s.id = k.id
    WHERE k."creditLimitMicros" IS NULL
       OR (CASE WHEN k."windowStartedAt" < s.ws THEN 0 ELSE k."windowSpentMicros" END) + s.total <= k."creditLimitMicros"
    ORDER BY k.id
    FOR NO KEY UPDATE OF k
  ), ok AS MATERIALIZED (
    SELECT u.* FROM usable u
    WHERE u."accountId" IN (SELECT id FROM acct)
      AND NOT EXISTS (SELECT 1 FROM usable v WHERE v."accountId" = u."accountId" AND v.id NOT IN (SELECT id FROM k))
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
    FROM (SELECT id, sum(amount) AS total, max("windowStart") AS ws FROM ok GROUP BY id) s
    WHERE "ApiKey".id = s.id
    RETURNING "ApiKey".id, "ApiKey"."creditLimitMicros" - "ApiKey"."windowSpentMicros" AS headroom
  ), r AS (
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "userId", model, provider, "generationId", "amountMicros", "expiresAt")
    SELECT rid, "accountId", id, "userId", model, provider, g, amount, exp FROM ok
    RETURNING id, "generationId"
  )
  SELECT key.ord, key.id, key."keyHash", key."userId", key."accountId", key.deleted, key.expired, key."limitReset",
         key."allowedModels", key."hasCreditLimit", key."modelAllowed", r.id AS "reservationId",
         CASE WHEN r.id IS NOT NULL THEN LEAST(acc.headroom, kh.headroom)::text END AS "headroomMicros"
  FROM key LEFT JOIN r ON r."generationId" = key.g
  LEFT JOIN a AS acc ON acc.id = key."accountId" LEFT JOIN ku AS kh ON kh.id = key.id`;

export interface Row {
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
  accountOk: boolean;
  reservationId: string | null;
  /** What the account (and the key's spend window, when it has a limit) can still cover after this reservation. */
  headroomMicros: string | null;
}

export interface KeyAdmissionInput {
  /** SHA-256 hash of a well-formed API key (hashSecret). */
  keyHash: string;
  /** The catalog model id, checked against the key's allowed models and recorded on the reservation. */
  model: string;
  provider: string;
  generationId: string;
  amountMicros: bigint;
  ttlMs?: number;
  now?: Date;
}

export type KeyAdmission =
  | {
      admitted: true;
      principal: Principal;
      reservationId: string;
      /** Credit left after this reservation: the lesser of the account's and, with a limit, the key window's. */
      headroomMicros: bigint;
    }
  /** The key is valid but may not use this model: nothing was reserved. */
  | { admitted: false; principal: Principal };

/**
 * One admission in one statement, unbatched (KeyAdmissionBatcher groups the chat path's). Throws the 401 of
 * authenticateBearer for a missing, deleted or expired key and the 402 of reserveCredits when the account or
 * the key's window cannot cover the amount.
 */
export async function reserveForApiKey(input: KeyAdmissionInput, now = input.now ?? new Date()): Promise<KeyAdmission> {
  return interpretKeyAdmission(await admitKeyStatement(input, now), input);
}

export async function admitKeyStatement(input: KeyAdmissionInput, now: Date): Promise<Row | undefined> {
  const { rows } = await (await database()).sql.query<Row>(
    ADMIT_KEY_SQL,
    [
      input.keyHash,
      ts(now),
      input.model,
      ts(currentWindowStart('DAILY', now)),
      ts(currentWindowStart('WEEKLY', now)),
      ts(currentWindowStart('MONTHLY', now)),
      input.amountMicros.toString(),
      newRowId(),
      input.provider,
      input.generationId,
      ts(new Date(now.getTime() + (input.ttlMs ?? 15 * 60_000))),
    ],
    { name: 'sb_admit_api_key' },
  );
  return rows[0];
}

export function interpretKeyAdmission(row: Row | undefined, input: KeyAdmissionInput): Promise<KeyAdmission> | KeyAdmission {
  if (!row?.id || !row.keyHash || !secretsEqual(row.keyHash, input.keyHash) || row.deleted) throw new AppError('unauthorized', 'Invalid API key');
  if (row.expired) throw new AppError('unauthorized', 'This API key has expired');
  const principal: Principal = {
    kind: 'api_key',
    userId: row.userId,
    accountId: row.accountId,
    apiKey: { id: row.id, limitReset: row.limitReset, allowedModels: row.allowedModels ?? [], hasCreditLimit: row.hasCreditLimit },
  };
  if (!row.modelAllowed) return { admitted: false, principal };
  if (!row.reservationId) return refuseReservation({ accountId: row.accountId, apiKeyId: row.id, amountMicros: input.amountMicros }, row.accountOk);
  return { admitted: true, principal, reservationId: row.reservationId, headroomMicros: BigInt(row.headroomMicros ?? '0') };
}

/** Many admissions in one statement; row `ord` answers inputs[ord] (see ADMIT_KEYS_BATCH_SQL). */
export async function admitKeysStatement(inputs: KeyAdmissionInput[], now: Date): Promise<(Row & { ord: number })[]> {
  const items = inputs.map((input, ord) => ({
    ord,
    h: input.keyHash,
    model: input.model,
    provider: input.provider,
    g: input.generationId,
    amount: input.amountMicros.toString(),
    rid: newRowId(),
    exp: ts(new Date(now.getTime() + (input.ttlMs ?? 15 * 60_000))),
  }));
  const { rows } = await (await database()).sql.query<Row & { ord: number }>(
    ADMIT_KEYS_BATCH_SQL,
    [JSON.stringify(items), ts(now), ts(currentWindowStart('DAILY', now)), ts(currentWindowStart('WEEKLY', now)), ts(currentWindowStart('MONTHLY', now))],
    { name: 'sb_admit_api_keys' },
  );
  return rows;
}
