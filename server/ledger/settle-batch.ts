// The usage flusher's fast path: settle a whole batch of generations in ONE SQL statement (one round trip,
// autocommit, atomic), with the same effects as settleInTx for each of them in order.
//
// Why: reservations and settlements update the same hot rows (the paying Account, the ApiKey). A batch
// settled statement by statement inside one interactive transaction holds those row locks for hundreds of
// round trips, and every request of that account waits for it at admission. As one statement the locks are
// held for the few milliseconds the statement runs.
//
// It takes the common case only: an ACTIVE reservation of the named account, whose account has no
// promotional credit to draw from when there is something to charge. Everything else (a reservation the
// sweeper already closed, promotional credit, a reference to a user or key deleted meanwhile, a conflict)
// is left untouched and reported as not settled, for settleInTx to handle one by one. If the statement
// fails as a whole (e.g. a foreign key violation) nothing was written and every item takes that path.
//
// Equivalence with settleInTx, per account (items applied in batch order):
//   Reservation → SETTLED with settledMicros = the cost; Account.reservedMicros −= Σ holds,
//   paidMicros −= Σ costs (no promotional credit), one USAGE ledger entry per charged item with the balance
//   right after it; ApiKey.windowSpentMicros (and Membership's) = max(0, window − Σ holds + Σ costs) (settleInTx clamps after
//   each item; the two differ only if the window was reset while generations of the old window were in
//   flight, where both are approximations), totalSpentMicros += Σ costs; one usage record per item.
// A reservation drawn from a credit lease (credit-leases.ts) gives its hold back to the lease: the lease's
// amount and Account.reservedMicros both go down by it — unless the lease was released meanwhile (its whole
// amount already left reservedMicros). Its windows held nothing (windowHeld false): the cost is added, the
// window restarting first if it rolled over (admission restarts it otherwise), and the key's lastUsedAt set.
// Locks are taken in settleInTx's order: Reservation, then CreditLease, then Account, then ApiKey, then Membership.
import { database } from '@/server/db';
import { currentWindowStart, newRowId, ts } from './reserve';
import { usageRecordFields, type SettleInput } from './settle-generation';

/** The start of a key's or member's current window, from the statement's parameters $3..$5 (as in reserve.ts). */
const windowStart = (t: string) =>
  `(CASE ${t}."limitReset"::text WHEN 'DAILY' THEN $3::timestamp(3) WHEN 'WEEKLY' THEN $4::timestamp(3) WHEN 'MONTHLY' THEN $5::timestamp(3) ELSE '1970-01-01'::timestamp(3) END)`;

const SETTLE_BATCH_SQL = `
  WITH input AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
      ord int, g text, a text, cost bigint, "settledMicros" bigint, lid text,
      "userId" text, "apiKeyId" text, "authTokenId" text, model text, provider text, "upstreamModel" text, "upstreamId" text,
      "providerKey" text, attempts int, "attemptLog" jsonb, "promptTokens" int, "completionTokens" int, "cachedTokens" int, "cacheWriteTokens" int, "reasoningTokens" int,
      "cacheSavingsMicros" bigint, "unbilledMicros" bigint, byok boolean, "providerCostMicros" bigint, "latencyMs" int, "ttftMs" int, "finishReason" text, status text, streamed boolean, "httpStatus" int,
      "errorCode" text, "errorMessage" text, "httpReferer" text, "xTitle" text, "taskId" text, "requestId" text)
  ), res AS MATERIALIZED (
    SELECT r."generationId", r."accountId", r."apiKeyId", r."membershipId", r."amountMicros", r."leaseId", r."windowHeld", i.cost, i.ord
    FROM "Reservation" r JOIN input i ON r."generationId" = i.g AND r."accountId" = i.a
    -- By generation id through its unique index; status as a plain filter (::text), as the status index
    -- would make the planner scan every ACTIVE reservation when it believes there are few.
    WHERE r."generationId" = ANY (ARRAY(SELECT g FROM input)) AND r.status::text = 'ACTIVE'
    FOR NO KEY UPDATE OF r
  ), ls AS MATERIALIZED (
    -- Locked first: a lease released concurrently is seen released (its amount already left the account).
    SELECT l.id FROM "CreditLease" l
    WHERE l.id IN (SELECT "leaseId" FROM res WHERE "leaseId" IS NOT NULL) AND l."releasedAt" IS NULL
    ORDER BY l.id FOR NO KEY UPDATE OF l
  ), acct AS (
    UPDATE "Account" a SET
      "reservedMicros" = a."reservedMicros" - s.reserved,
      "paidMicros" = a."paidMicros" - s.cost,
      "updatedAt" = CASE WHEN s.cost > 0 THEN now() ELSE a."updatedAt" END
    FROM (SELECT "accountId", sum(CASE WHEN "leaseId" IS NULL OR "leaseId" IN (SELECT id FROM ls) THEN "amountMicros" ELSE 0 END) AS reserved, sum(cost) AS cost
          FROM res GROUP BY "accountId") s
    WHERE a.id = s."accountId" AND (a."promoMicros" <= 0 OR s.cost = 0)
    RETURNING a.id, a."paidMicros" + a."promoMicros" AS "totalAfter"
  ), done AS MATERIALIZED (
    SELECT res.*, acct."totalAfter" FROM res JOIN acct ON acct.id = res."accountId"
  ), lu AS (
    -- Only what this statement settles (done): an item left to settleInTx must leave its lease alone here.
    UPDATE "CreditLease" l SET "amountMicros" = GREATEST(0, l."amountMicros" - s.held)
    FROM (SELECT "leaseId", sum("amountMicros") AS held FROM done WHERE "leaseId" IN (SELECT id FROM ls) GROUP BY "leaseId") s
    WHERE l.id = s."leaseId"
    RETURNING l.id
  ), closed AS (
    UPDATE "Reservation" r SET status = 'SETTLED'::"ReservationStatus", "settledMicros" = i."settledMicros", "settledAt" = now()
    FROM done JOIN input i ON i.g = done."generationId"
    WHERE r."generationId" = done."generationId"
    RETURNING r.id
  ), keys AS (
    UPDATE "ApiKey" k SET
      "windowSpentMicros" = CASE WHEN s.reserved = 0 AND k."windowStartedAt" < ${windowStart('k')} THEN s.cost ELSE GREATEST(0, k."windowSpentMicros" - s.reserved + s.cost) END,
      "windowStartedAt" = CASE WHEN s.reserved = 0 AND k."windowStartedAt" < ${windowStart('k')} THEN ${windowStart('k')} ELSE k."windowStartedAt" END,
      "lastUsedAt" = CASE WHEN s.unheld THEN $2::timestamp(3) ELSE k."lastUsedAt" END,
      "totalSpentMicros" = k."totalSpentMicros" + s.cost
    FROM (SELECT "apiKeyId", sum(CASE WHEN "windowHeld" THEN "amountMicros" ELSE 0 END) AS reserved, sum(cost) AS cost, bool_or(NOT "windowHeld") AS unheld
          FROM done WHERE "apiKeyId" IS NOT NULL GROUP BY "apiKeyId") s
    WHERE k.id = s."apiKeyId"
    RETURNING k.id
  ), members AS (
    UPDATE "Membership" m SET
      "windowSpentMicros" = CASE WHEN s.reserved = 0 AND m."windowStartedAt" < ${windowStart('m')} THEN s.cost ELSE GREATEST(0, m."windowSpentMicros" - s.reserved + s.cost) END,
      "windowStartedAt" = CASE WHEN s.reserved = 0 AND m."windowStartedAt" < ${windowStart('m')} THEN ${windowStart('m')} ELSE m."windowStartedAt" END
    FROM (SELECT "membershipId", sum(CASE WHEN "windowHeld" THEN "amountMicros" ELSE 0 END) AS reserved, sum(cost) AS cost FROM done WHERE "membershipId" IS NOT NULL GROUP BY "membershipId") s
    WHERE m.id = s."membershipId"
    RETURNING m.id
  ), ledger AS (
    INSERT INTO "LedgerEntry" (id, "accountId", kind, "amountMicros", "paidMicros", "promoMicros", "balanceAfterMicros", "idempotencyKey", "generationId")
    SELECT i.lid, d."accountId", 'USAGE'::"LedgerKind", -d.cost, -d.cost, 0,
           d."totalAfter" + COALESCE(sum(d.cost) OVER (PARTITION BY d."accountId" ORDER BY d.ord DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0),
           'usage:' || d."generationId", d."generationId"
    FROM done d JOIN input i ON i.g = d."generationId"
    WHERE d.cost > 0
    RETURNING id
  ), live AS MATERIALIZED (
    -- The users, keys and tokens the usage records may name: one deleted while its generation ran is not named
    -- (these rows carry no foreign keys). A lookup per distinct id, no lock; per row, a hashed set.
    SELECT 'user' AS kind, id FROM "User" WHERE id IN (SELECT "userId" FROM input)
    UNION ALL SELECT 'key', id FROM "ApiKey" WHERE id IN (SELECT "apiKeyId" FROM input)
    UNION ALL SELECT 'token', id FROM "AuthToken" WHERE id IN (SELECT "authTokenId" FROM input)
  ), usage AS (
    INSERT INTO "UsageRecord" (id, "accountId", "userId", "apiKeyId", "authTokenId", model, provider, "upstreamModel", "upstreamId", "providerKey", attempts, "attemptLog",
      "promptTokens", "completionTokens", "cachedTokens", "cacheWriteTokens", "reasoningTokens", "costMicros", "cacheSavingsMicros", "unbilledMicros", byok, "providerCostMicros",
      "latencyMs", "ttftMs", "finishReason", status, streamed, "httpStatus", "errorCode", "errorMessage", "httpReferer", "xTitle", "taskId", "requestId")
    SELECT i.g, i.a,
      CASE WHEN i."userId" IN (SELECT id FROM live WHERE kind = 'user') THEN i."userId" END,
      CASE WHEN i."apiKeyId" IN (SELECT id FROM live WHERE kind = 'key') THEN i."apiKeyId" END,
      CASE WHEN i."authTokenId" IN (SELECT id FROM live WHERE kind = 'token') THEN i."authTokenId" END,
      i.model, i.provider, i."upstreamModel", i."upstreamId", i."providerKey", i.attempts, i."attemptLog",
      i."promptTokens", i."completionTokens", i."cachedTokens", i."cacheWriteTokens", i."reasoningTokens", i.cost, i."cacheSavingsMicros", i."unbilledMicros", COALESCE(i.byok, false), i."providerCostMicros",
      i."latencyMs", i."ttftMs", i."finishReason", i.status::"UsageStatus", i.streamed, i."httpStatus", i."errorCode", i."errorMessage", i."httpReferer", i."xTitle", i."taskId", i."requestId"
    FROM done d JOIN input i ON i.g = d."generationId"
    RETURNING id
  )
  SELECT "generationId" FROM done`;

/** Whether settleBatch may take this item (else settleInTx must). */
export function fastSettleable(input: SettleInput): boolean {
  return (input.closeAs ?? 'SETTLED') === 'SETTLED';
}

/**
 * Settles what it can of `inputs` in one statement; returns the generation ids it settled. The others
 * were not touched. Throws when the statement failed as a whole (then nothing was written).
 */
export async function settleBatch(inputs: SettleInput[]): Promise<Set<string>> {
  const items = inputs.filter(fastSettleable);
  if (items.length === 0) return new Set();
  const rows = items.map((p, ord) => {
    const cost = p.costMicros < 0n ? 0n : p.costMicros;
    // Same columns as settleInTx writes; the statement reads them by name (jsonb_to_recordset), bigints as text.
    const { id: _id, accountId: _accountId, costMicros: _cost, cacheSavingsMicros, unbilledMicros, providerCostMicros, ...fields } = usageRecordFields(p, cost);
    return {
      ord,
      g: p.generationId,
      a: p.accountId,
      cost: cost.toString(),
      settledMicros: p.costMicros.toString(),
      lid: newRowId(),
      ...fields,
      cacheSavingsMicros: cacheSavingsMicros.toString(),
      unbilledMicros: unbilledMicros.toString(),
      providerCostMicros: providerCostMicros?.toString() ?? null,
    };
  });
  const now = new Date();
  const params = [JSON.stringify(rows), ts(now), ts(currentWindowStart('DAILY', now)), ts(currentWindowStart('WEEKLY', now)), ts(currentWindowStart('MONTHLY', now))];
  const { rows: settled } = await (await database()).sql.query<{ generationId: string }>(SETTLE_BATCH_SQL, params, { name: 'sb_settle_batch' });
  return new Set(settled.map((r) => r.generationId));
}
