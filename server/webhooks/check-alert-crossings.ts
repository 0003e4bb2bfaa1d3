// Finds balance.low and limit.threshold crossings, off the chat path: the worker runs this every
// ALERT_CHECK_INTERVAL_MS. It reads what settlement already maintains (Account balances, ApiKey and Membership
// spend windows) and records one event per crossing:
//   - balance.low: the balance (paid + promotional) is below the account's low_balance_usd setting
//     (organizations: settings.low_balance_usd; personal accounts: the user's settings.low_balance_usd);
//   - limit.threshold: an API key's or a member's settled spend in its current window reached 80 % or 100 %
//     of its limit. Spend is the window's counter minus the holds of requests still in flight (admission
//     counts those, but they are not spent yet), and a window past its reset counts as empty.
// Exactly once per crossing: a subject past a level has an AlertCrossing row, written by a conditional upsert
// in the transaction that writes the event (it only succeeds when there was no row, or one of an older
// window), and deleted when the subject is seen back below. The whole check runs under a transaction-scoped
// advisory lock: with several instances one checks at a time and the others skip that round, so a stale
// reading can never clear a crossing another instance just recorded.
import { db, type Prisma } from '@/server/db';
import { microsToUsd } from '@/server/ledger/money';
import { currentWindowStart, ts, type LimitReset } from '@/server/ledger/reserve';
import { recordAccountEvent } from './record-account-event';

type Tx = Prisma.TransactionClient;

/** pg_try_advisory_xact_lock key of the check ("SWHT"). */
const ALERT_CHECK_LOCK = 0x53574854;
export const LIMIT_LEVELS = [80, 100] as const;

interface LimitRow {
  id: string;
  accountId: string;
  limitMicros: bigint;
  limitReset: LimitReset;
  windowStartedAt: Date;
  spentMicros: bigint;
  name: string | null;
  hint: string | null;
  userId: string;
  email: string | null;
}

interface BalanceRow {
  id: string;
  balanceMicros: bigint;
  thresholdMicros: bigint;
}

interface CrossingRow {
  subjectType: string;
  subjectId: string;
  level: number;
}

const crossingKey = (type: string, id: string, level: number) => `${type}|${id}|${level}`;

/** Runs one check; returns the number of events recorded (0 also when another instance holds the check). */
export async function checkAlertCrossings(now = new Date()): Promise<number> {
  const prisma = await db();
  return prisma.$transaction(
    async (tx) => {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${ALERT_CHECK_LOCK}::bigint) AS locked`;
      if (!locked) return 0;
      const above = new Set<string>();
      let events = 0;

      for (const s of [...(await keySubjects(tx)).map((r) => ({ ...r, type: 'api_key' as const })), ...(await memberSubjects(tx)).map((r) => ({ ...r, type: 'member' as const }))]) {
        const current = currentWindowStart(s.limitReset, now);
        const rolledOver = s.limitReset !== 'NEVER' && s.windowStartedAt < current;
        const spent = rolledOver ? 0n : s.spentMicros;
        const windowStartedAt = rolledOver ? current : s.windowStartedAt;
        for (const level of LIMIT_LEVELS) {
          if (spent * 100n < s.limitMicros * BigInt(level)) continue;
          above.add(crossingKey(s.type, s.id, level));
          if (!(await markCrossed(tx, { subjectType: s.type, subjectId: s.id, level, accountId: s.accountId, windowStartedAt, at: now }))) continue;
          await recordAccountEvent(tx, {
            accountId: s.accountId,
            type: 'limit.threshold',
            data: {
              subject: s.type,
              ...(s.type === 'api_key' ? { api_key: { id: s.id, name: s.name ?? '', hint: s.hint ?? '', user_id: s.userId } } : { member: { user_id: s.userId, email: s.email ?? '' } }),
              threshold_percent: level,
              limit: microsToUsd(s.limitMicros),
              spent: microsToUsd(spent),
              limit_reset: s.limitReset.toLowerCase(),
              window_started_at: windowStartedAt.toISOString(),
            },
          });
          events++;
        }
      }

      for (const b of await balanceSubjects(tx)) {
        if (b.balanceMicros >= b.thresholdMicros) continue;
        above.add(crossingKey('account', b.id, 0));
        if (!(await markCrossed(tx, { subjectType: 'account', subjectId: b.id, level: 0, accountId: b.id, windowStartedAt: null, at: now }))) continue;
        await recordAccountEvent(tx, { accountId: b.id, type: 'balance.low', data: { balance: microsToUsd(b.balanceMicros), threshold: microsToUsd(b.thresholdMicros) } });
        events++;
      }

      // Back below (or the limit, threshold or key is gone): the next crossing is an event again.
      const crossed = await tx.$queryRaw<CrossingRow[]>`SELECT "subjectType", "subjectId", level FROM "AlertCrossing"`;
      for (const c of crossed) {
        if (above.has(crossingKey(c.subjectType, c.subjectId, c.level))) continue;
        await tx.$executeRaw`DELETE FROM "AlertCrossing" WHERE "subjectType" = ${c.subjectType} AND "subjectId" = ${c.subjectId} AND level = ${c.level}`;
      }
      return events;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/** Records the crossing; true only when it was not already recorded for this window (the caller then records the event). */
async function markCrossed(tx: Tx, c: { subjectType: string; subjectId: string; level: number; accountId: string; windowStartedAt: Date | null; at: Date }): Promise<boolean> {
  const window = c.windowStartedAt ? ts(c.windowStartedAt) : null;
  const rows = await tx.$queryRaw<{ level: number }[]>`
    INSERT INTO "AlertCrossing" ("subjectType", "subjectId", level, "accountId", "windowStartedAt", "crossedAt")
    VALUES (${c.subjectType}, ${c.subjectId}, ${c.level}, ${c.accountId}, ${window}::timestamp(3), ${ts(c.at)}::timestamp(3))
    ON CONFLICT ("subjectType", "subjectId", level) DO UPDATE
      SET "windowStartedAt" = EXCLUDED."windowStartedAt", "crossedAt" = EXCLUDED."crossedAt"
      WHERE "AlertCrossing"."windowStartedAt" IS DISTINCT FROM EXCLUDED."windowStartedAt"
    RETURNING level`;
  return rows.length > 0;
}

// Only subjects that may be past a level (the window counter, holds included, is an upper bound of the
// spend) or that have a crossing recorded (to see them come back below) are read.
function keySubjects(tx: Tx): Promise<LimitRow[]> {
  return tx.$queryRaw<LimitRow[]>`
    SELECT k.id, k."accountId", k."creditLimitMicros" AS "limitMicros", k."limitReset"::text AS "limitReset", k."windowStartedAt",
           GREATEST(0, k."windowSpentMicros" - COALESCE(h.held, 0))::bigint AS "spentMicros",
           k.name, k.hint, k."userId", NULL::text AS email
    FROM "ApiKey" k
    LEFT JOIN (SELECT r."apiKeyId" AS id, sum(r."amountMicros") AS held
               FROM "Reservation" r JOIN "ApiKey" rk ON rk.id = r."apiKeyId"
               WHERE r.status = 'ACTIVE'::"ReservationStatus" AND r."createdAt" >= rk."windowStartedAt"
               GROUP BY r."apiKeyId") h ON h.id = k.id
    WHERE k."creditLimitMicros" > 0 AND k."deletedAt" IS NULL
      AND (k."windowSpentMicros" * 100 >= k."creditLimitMicros" * ${LIMIT_LEVELS[0]}
           OR EXISTS (SELECT 1 FROM "AlertCrossing" c WHERE c."subjectType" = 'api_key' AND c."subjectId" = k.id))`;
}

function memberSubjects(tx: Tx): Promise<LimitRow[]> {
  return tx.$queryRaw<LimitRow[]>`
    SELECT m.id, m."organizationId" AS "accountId", m."spendLimitMicros" AS "limitMicros", m."limitReset"::text AS "limitReset", m."windowStartedAt",
           GREATEST(0, m."windowSpentMicros" - COALESCE(h.held, 0))::bigint AS "spentMicros",
           NULL::text AS name, NULL::text AS hint, m."userId", u.email
    FROM "Membership" m JOIN "User" u ON u.id = m."userId"
    LEFT JOIN (SELECT r."membershipId" AS id, sum(r."amountMicros") AS held
               FROM "Reservation" r JOIN "Membership" rm ON rm.id = r."membershipId"
               WHERE r.status = 'ACTIVE'::"ReservationStatus" AND r."createdAt" >= rm."windowStartedAt"
               GROUP BY r."membershipId") h ON h.id = m.id
    WHERE m."spendLimitMicros" > 0
      AND (m."windowSpentMicros" * 100 >= m."spendLimitMicros" * ${LIMIT_LEVELS[0]}
           OR EXISTS (SELECT 1 FROM "AlertCrossing" c WHERE c."subjectType" = 'member' AND c."subjectId" = m.id))`;
}

/** Accounts with a low-balance threshold that are below it, or with a crossing recorded. */
function balanceSubjects(tx: Tx): Promise<BalanceRow[]> {
  return tx.$queryRaw<BalanceRow[]>`
    SELECT a.id, (a."paidMicros" + a."promoMicros") AS "balanceMicros", t."thresholdMicros"
    FROM (SELECT o.id, round((o.settings->>'low_balance_usd')::numeric * 1000000)::bigint AS "thresholdMicros"
          FROM "Organization" o WHERE jsonb_typeof(o.settings->'low_balance_usd') = 'number'
          UNION ALL
          SELECT u."personalAccountId", round((u.settings->>'low_balance_usd')::numeric * 1000000)::bigint
          FROM "User" u WHERE jsonb_typeof(u.settings->'low_balance_usd') = 'number') t
    JOIN "Account" a ON a.id = t.id
    WHERE a."paidMicros" + a."promoMicros" < t."thresholdMicros"
       OR EXISTS (SELECT 1 FROM "AlertCrossing" c WHERE c."subjectType" = 'account' AND c."subjectId" = a.id)`;
}
