// The admission statement (reserve.ts runs it; the rules are its comment). One statement decides a group of
// requests for credit: authentication of API keys by hash, the key's, the organization's and the member's
// checks, and the holds on the account and the spend windows.
// The rules, once:
//   - An API key is found by its hash (authenticating it) or by its id (the key of a principal authenticated
//     before); either way it must exist, not be deleted, expired or disabled, and allow the model. No key:
//     the account alone. A rotated key's previous secret finds the same row (previousKeyHash, a second unique
//     index probe in the same statement) until its grace period ends (rotate-api-key.ts); the hash that
//     matched is returned as "keyHash" for the caller's constant-time check.
//   - Organization policy (Organization.settings), for every key and token acting for the organization:
//     `allowed_models` (non-empty: the model or one of its aliases must be listed) and `allowed_providers`
//     (non-empty: only the candidate endpoints of those providers count; none left → refused).
//   - Bring your own key: a candidate whose provider has one of the account's ProviderKeys costs its BYOK
//     amount (the fee) instead of the list price. The amount reserved is the largest over the candidates
//     that remain (`eff`), so whichever serves, the charge fits.
//   - Account: available − amount ≥ −credit floor (paid + promo − reserved − amount ≥ −creditFloorMicros).
//   - Key with a credit limit: the spend in its current window + amount ≤ the limit; the window restarts at
//     the start of the UTC day, ISO week or month per the key's reset (NEVER: the epoch, it never restarts).
//   - Organization member (the user of the key or token is a member of the paying organization): the same
//     window rule on the Membership row with its spend limit; its window counts every reservation.
//   - Several requests are decided per account: all of an account's requests are admitted together when the
//     account covers their sum and each of its keys' and members' windows covers theirs, or none of them
//     (the batcher then decides those one at a time, in order; for one request this is the whole decision).
//   - Locks: each check locks its rows first (a locking SELECT re-evaluates its condition on the latest row
//     version, as a conditional UPDATE would), accounts, then keys, then memberships, each in id order, the
//     same order as settlement (Account, ApiKey, Membership), so concurrent statements cannot deadlock. FOR
//     NO KEY UPDATE is the lock an UPDATE of non-key columns takes: it does not conflict with the key-share
//     locks that inserts of child rows (reservations, ledger entries, grants) hold on the account.
//   - Credit lease (credit-leases.ts): a request may name a lease of this process on its account. It is
//     drawn from the lease, not from the account, when the lease is live and neither the key nor the member
//     has a spend limit: then no row is locked or updated (no account hold, no window hold: `windowHeld`
//     false, settlement adds the cost to the windows) and the reservation names the lease. The process
//     checked in memory that the lease covers it. Otherwise (a limit was set, the lease was released) the
//     request is decided as any other.
//   - Writes only for requests that passed every check: the account's hold, the key's and the member's
//     windows, and a Reservation row naming who and what (the sweeper needs it to record an interrupted
//     generation, settlement to give the member's window back).
// Requests arrive as one JSON array (the embedded database's client passes no array parameters), and each answer
// leaves as one JSON object: node-postgres reads the row description and builds a parser per column on every
// execution, which for ~30 columns cost more of the driver's CPU than PostgreSQL spends building the object
// (a microbenchmark on PostgreSQL: ~69 against ~51 µs of Node CPU per statement).
const windowStart = (reset: string) => `CASE ${reset} WHEN 'DAILY' THEN $3::timestamp(3) WHEN 'WEEKLY' THEN $4::timestamp(3)
                                     WHEN 'MONTHLY' THEN $5::timestamp(3) ELSE '1970-01-01'::timestamp(3) END`;
const settingArray = (name: string) =>
  `NULLIF(ARRAY(SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(o.settings->'${name}') = 'array' THEN o.settings->'${name}' ELSE '[]'::jsonb END)), '{}'::text[])`;
export const RESERVE_SQL = `
  WITH input AS MATERIALIZED (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS x(ord int, h text, kid text, acct text, uid text, tok text, model text, al text[], provider text, g text, amount bigint, cands jsonb, rid text, exp timestamp(3), lid text)
  ), req0 AS MATERIALIZED (
    SELECT i.*, k.id, k."matchedHash" AS "keyHash", COALESCE(i.uid, k."userId") AS "userId", COALESCE(i.acct, k."accountId") AS "accountId",
           k."deletedAt" IS NOT NULL AS deleted, (k."expiresAt" IS NOT NULL AND k."expiresAt" <= $2::timestamp(3)) AS expired,
           k."disabledAt" IS NOT NULL AS disabled, k."rateLimitRpm", k."rateLimitTpm",
           EXISTS (SELECT 1 FROM "User" u WHERE u.id = COALESCE(i.uid, k."userId") AND u."suspendedAt" IS NOT NULL) AS suspended,
           k."limitReset"::text AS "limitReset", k."allowedModels", k."creditLimitMicros" IS NOT NULL AS "hasCreditLimit", k."creditLimitMicros",
           (k.id IS NULL OR cardinality(k."allowedModels") = 0 OR i.model = ANY (k."allowedModels") OR i.al && k."allowedModels") AS "modelAllowed",
           ${windowStart('k."limitReset"::text')} AS "windowStart"
    FROM input i LEFT JOIN LATERAL (
      SELECT *, "keyHash" AS "matchedHash" FROM "ApiKey" WHERE "keyHash" = i.h
      UNION ALL SELECT *, "previousKeyHash" FROM "ApiKey" WHERE "previousKeyHash" = i.h AND "previousKeyExpiresAt" > $2::timestamp(3)
      UNION ALL SELECT *, "keyHash" FROM "ApiKey" WHERE id = i.kid
    ) k ON true
  ), req AS MATERIALIZED (
    SELECT r.*, m.id AS "membershipId", ${windowStart('m."limitReset"::text')} AS "memberWindowStart",
           pol."allowedModels" AS "orgAllowedModels", pol."allowedProviders",
           (pol."allowedModels" IS NULL OR r.model = ANY (pol."allowedModels") OR r.al && pol."allowedModels") AS "orgModelAllowed",
           pk.keys AS "byokKeys", (pol."allowedModels" IS NULL AND pol."allowedProviders" IS NULL AND NOT pk.any) AS plain,
           e.amount AS eff, (m.id IS NULL OR m."spendLimitMicros" IS NULL) AS "memberUnlimited", l.id IS NOT NULL AS "leaseLive",
           (l.id IS NOT NULL AND r."creditLimitMicros" IS NULL AND m."spendLimitMicros" IS NULL) AS drawn
    FROM req0 r
    LEFT JOIN "Organization" o ON o.id = r."accountId"
    LEFT JOIN "Membership" m ON m."organizationId" = r."accountId" AND m."userId" = r."userId"
    LEFT JOIN "CreditLease" l ON l.id = r.lid AND l."accountId" = r."accountId" AND l."releasedAt" IS NULL
    LEFT JOIN LATERAL (SELECT ${settingArray('allowed_models')} AS "allowedModels", ${settingArray('allowed_providers')} AS "allowedProviders") pol ON true
    LEFT JOIN LATERAL (
      SELECT jsonb_object_agg(p.provider, p."encryptedKey") FILTER (WHERE p.provider IN (SELECT c->>'p' FROM jsonb_array_elements(r.cands) c)) AS keys,
             count(*) > 0 AS any
      FROM "ProviderKey" p WHERE p."accountId" = r."accountId"
    ) pk ON true
    LEFT JOIN LATERAL (
      SELECT max(CASE WHEN pk.keys ? c.p THEN c.b ELSE c.a END) AS amount
      FROM jsonb_to_recordset(COALESCE(r.cands, jsonb_build_array(jsonb_build_object('p', r.provider, 'a', r.amount, 'b', r.amount)))) AS c(p text, a bigint, b bigint)
      WHERE pol."allowedProviders" IS NULL OR c.p = ANY (pol."allowedProviders")
    ) e ON true
  ), usable AS MATERIALIZED (
    SELECT * FROM req
    WHERE "accountId" IS NOT NULL AND "orgModelAllowed" AND eff IS NOT NULL AND NOT suspended
      AND ((h IS NULL AND kid IS NULL) OR (id IS NOT NULL AND NOT deleted AND NOT expired AND NOT disabled AND "modelAllowed"))
  ), acct AS MATERIALIZED (
    SELECT a.id FROM "Account" a
    JOIN (SELECT "accountId", sum(eff) AS total FROM usable WHERE NOT drawn GROUP BY "accountId") s ON s."accountId" = a.id
    WHERE a."paidMicros" + a."promoMicros" - a."reservedMicros" - s.total >= -a."creditFloorMicros"
    ORDER BY a.id
    FOR NO KEY UPDATE OF a
  ), k AS MATERIALIZED (
    SELECT k.id FROM "ApiKey" k
    JOIN (SELECT id, sum(eff) AS total, max("windowStart") AS ws FROM usable
          WHERE id IS NOT NULL AND NOT drawn AND "accountId" IN (SELECT id FROM acct) GROUP BY id) s ON s.id = k.id
    WHERE k."creditLimitMicros" IS NULL
       OR (CASE WHEN k."windowStartedAt" < s.ws THEN 0 ELSE k."windowSpentMicros" END) + s.total <= k."creditLimitMicros"
    ORDER BY k.id
    FOR NO KEY UPDATE OF k
  ), mem AS MATERIALIZED (
    SELECT m.id FROM "Membership" m
    JOIN (SELECT "membershipId" AS mid, sum(eff) AS total, max("memberWindowStart") AS ws FROM usable
          WHERE "membershipId" IS NOT NULL AND NOT drawn AND "accountId" IN (SELECT id FROM acct) GROUP BY "membershipId") s ON s.mid = m.id
    WHERE m."spendLimitMicros" IS NULL
       OR (CASE WHEN m."windowStartedAt" < s.ws THEN 0 ELSE m."windowSpentMicros" END) + s.total <= m."spendLimitMicros"
    ORDER BY m.id
    FOR NO KEY UPDATE OF m
  ), ok AS MATERIALIZED (
    SELECT u.* FROM usable u
    WHERE u.drawn OR (u."accountId" IN (SELECT id FROM acct)
      AND NOT EXISTS (SELECT 1 FROM usable v WHERE v."accountId" = u."accountId" AND NOT v.drawn AND v.id IS NOT NULL AND v.id NOT IN (SELECT id FROM k))
      AND NOT EXISTS (SELECT 1 FROM usable v WHERE v."accountId" = u."accountId" AND NOT v.drawn AND v."membershipId" IS NOT NULL AND v."membershipId" NOT IN (SELECT id FROM mem)))
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" + s.total
    FROM (SELECT "accountId", sum(eff) AS total FROM ok WHERE NOT drawn GROUP BY "accountId") s
    WHERE "Account".id = s."accountId"
    RETURNING "Account".id, "paidMicros" + "promoMicros" - "reservedMicros" + "creditFloorMicros" AS headroom
  ), ku AS (
    UPDATE "ApiKey" SET
      "windowSpentMicros" = CASE WHEN "windowStartedAt" < s.ws THEN s.total ELSE "windowSpentMicros" + s.total END,
      "windowStartedAt" = CASE WHEN "windowStartedAt" < s.ws THEN s.ws ELSE "windowStartedAt" END,
      "lastUsedAt" = $2::timestamp(3)
    FROM (SELECT id, sum(eff) AS total, max("windowStart") AS ws FROM ok WHERE id IS NOT NULL AND NOT drawn GROUP BY id) s
    WHERE "ApiKey".id = s.id
    RETURNING "ApiKey".id, "ApiKey"."creditLimitMicros" - "ApiKey"."windowSpentMicros" AS headroom
  ), mu AS (
    UPDATE "Membership" SET
      "windowSpentMicros" = CASE WHEN "windowStartedAt" < s.ws THEN s.total ELSE "windowSpentMicros" + s.total END,
      "windowStartedAt" = CASE WHEN "windowStartedAt" < s.ws THEN s.ws ELSE "windowStartedAt" END
    FROM (SELECT "membershipId" AS mid, sum(eff) AS total, max("memberWindowStart") AS ws FROM ok WHERE "membershipId" IS NOT NULL AND NOT drawn GROUP BY "membershipId") s
    WHERE "Membership".id = s.mid
    RETURNING "Membership".id, "Membership"."spendLimitMicros" - "Membership"."windowSpentMicros" AS headroom
  ), r AS (
    INSERT INTO "Reservation" (id, "accountId", "apiKeyId", "userId", "authTokenId", "membershipId", model, provider, "generationId", "amountMicros", "expiresAt", "leaseId", "windowHeld")
    SELECT rid, "accountId", id, "userId", tok, "membershipId", model, provider, g, eff, exp, CASE WHEN drawn THEN lid END, NOT drawn FROM ok
    RETURNING id, "generationId"
  )
  SELECT json_build_object(
           'ord', req.ord, 'id', req.id, 'keyHash', req."keyHash", 'userId', req."userId", 'accountId', req."accountId",
           'deleted', req.deleted, 'expired', req.expired, 'disabled', req.disabled, 'suspended', req.suspended, 'limitReset', req."limitReset",
           'allowedModels', req."allowedModels", 'hasCreditLimit', req."hasCreditLimit", 'modelAllowed', req."modelAllowed",
           'rateLimitRpm', req."rateLimitRpm", 'rateLimitTpm', req."rateLimitTpm", 'orgModelAllowed', req."orgModelAllowed",
           'orgAllowedModels', req."orgAllowedModels", 'allowedProviders', req."allowedProviders", 'providerAllowed', req.eff IS NOT NULL,
           'byokKeys', req."byokKeys", 'plain', req.plain, 'membershipId', req."membershipId", 'reservedMicros', req.eff::text,
           'drawn', req.drawn, 'leaseLive', req."leaseLive", 'memberUnlimited', req."memberUnlimited",
           'accountOk', COALESCE(req."accountId" IN (SELECT id FROM acct), false),
           'keyOk', (req.id IS NULL OR req.id IN (SELECT id FROM k)),
           'reservationId', r.id,
           'headroomMicros', CASE WHEN r.id IS NOT NULL THEN LEAST(acc.headroom, kh.headroom, mh.headroom)::text END) AS row
  FROM req LEFT JOIN r ON r."generationId" = req.g
  LEFT JOIN a AS acc ON acc.id = req."accountId" LEFT JOIN ku AS kh ON kh.id = req.id LEFT JOIN mu AS mh ON mh.id = req."membershipId"`;
