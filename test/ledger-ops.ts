// Test support for the ledger's property tests: random operations on one account (fast-check
// arbitraries), the code that runs each through the real services, an exact in-memory model of what each
// should do, and a snapshot of the account's invariants read back from the database in one query.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { db } from '@/server/db';
import { rawEnv } from '@/server/env';
import { grantCredits } from '@/server/ledger/balance';
import { reserveCredits } from '@/server/ledger/reserve';
import { settleGeneration, type UsageFields } from '@/server/ledger/settle-generation';
import { sweepExpiredReservations } from '@/server/ledger/sweep-reservations';
import { createPromotion } from '@/server/promotions/create-promotion';
import { expirePromotionGrants } from '@/server/promotions/expire-promotion-grants';
import { grantPromotion } from '@/server/promotions/grant-promotion';
import { KeyAdmissionBatcher } from '@/server/ledger/key-admission-batcher';
import { CreditLeases, sweepExpiredLeases } from '@/server/ledger/credit-leases';
import { SettlementQueue } from '@/server/ledger/settlement-queue';

export const DAY_MS = 86_400_000;

/** The batched writer the `viaFlush` settlements go through (a runtime's queue, as the gateway uses). */
const settlements = new SettlementQueue();
/** The API-key admissions of a runtime, as the gateway makes them, with its credit leases. */
let credit = new CreditLeases(90_000);
let keyAdmissions = new KeyAdmissionBatcher(credit);

export type Op =
  | { t: 'grant'; micros: bigint }
  | { t: 'refund'; micros: bigint }
  | { t: 'promo'; micros: bigint; ttlDays: number | null }
  | { t: 'reserve'; micros: bigint; withKey: boolean }
  /**
   * Settle generation #pick (mod count) at `percent`% of its reservation: 0 = a release; > 100 = over the
   * hold. `viaFlush`: through the batched writer (ledger/settlement-queue.ts and its one-statement fast path) rather
   * than settleGeneration directly.
   */
  | { t: 'settle'; pick: number; percent: number; status: 'SUCCESS' | 'ABORTED' | 'ERROR'; viaFlush: boolean }
  /** The process "crashed": every active reservation is swept as expired. */
  | { t: 'sweep' }
  /** Time passes: promotional credit granted for at most `days` days expires. */
  | { t: 'expire'; days: number };

const micros = (max: number) => fc.bigInt({ min: 1n, max: BigInt(max) });

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('grant' as const), micros: micros(3_000_000) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('refund' as const), micros: micros(1_500_000) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('promo' as const), micros: micros(2_000_000), ttlDays: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }) }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('reserve' as const), micros: micros(2_000_000), withKey: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ t: fc.constant('settle' as const), pick: fc.nat(50), percent: fc.integer({ min: 0, max: 150 }), status: fc.constantFrom('SUCCESS' as const, 'ABORTED' as const, 'ERROR' as const), viaFlush: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ t: 'sweep' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('expire' as const), days: fc.integer({ min: 1, max: 3 }) }) },
);

export interface Gen {
  id: string;
  micros: bigint;
  withKey: boolean;
  state: 'active' | 'settled' | 'expired' | 'late';
}

export interface Subject {
  accountId: string;
  keyId: string;
  /** The key's hash: reservations "with the key" are admitted the way API-key requests are (by hash, grouped per key). */
  keyHash: string;
  floor: bigint;
  /** null: no limit (its requests may be drawn from a credit lease). */
  keyLimit: bigint | null;
  /** Every generation ever admitted, in order. */
  gens: Gen[];
  /** The clock the run pretends it is (sweeps and expiry look this far ahead). */
  startedAt: number;
}

const usage = (status: UsageFields['status']): UsageFields => ({ model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status, streamed: true });

export const settleCost = (g: Gen, percent: number) => (g.micros * BigInt(percent)) / 100n;

export type Outcome = { admitted?: boolean; gen?: Gen };

/** An operation not finished after this long fails its run, saying what the database was doing (no hang). */
const OP_DEADLINE_MS = 30_000;

const show = (op: Op) => JSON.stringify(op, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** Runs one operation through the services. Only a 402 at admission is an expected failure. */
export async function runOp(s: Subject, op: Op): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => void describeStuck(op).then((what) => reject(new Error(what))), OP_DEADLINE_MS);
  });
  try {
    return await Promise.race([runOpNow(s, op), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What a stuck operation was waiting for: the settlement queue, and on PostgreSQL every connection of this
 * process's test databases (state, wait, blockers, statement), read over a connection of its own.
 */
async function describeStuck(op: Op): Promise<string> {
  const lines = [`ledger op ${show(op)} did not finish within ${OP_DEADLINE_MS / 1000} s`, `settlements queued: ${settlements.pending()}`];
  const admin = rawEnv('TEST_DATABASE_URL');
  if (admin) {
    const c = new pg.Client({ connectionString: admin });
    try {
      await c.connect();
      const { rows } = await c.query(
        `SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blocked_by,
           round(extract(epoch FROM now() - xact_start)::numeric, 1) AS xact_s, left(query, 300) AS query
         FROM pg_stat_activity WHERE datname LIKE $1 ORDER BY pid`,
        [`sb_test_${process.pid}_%`],
      );
      for (const r of rows) lines.push(JSON.stringify(r));
    } catch (err) {
      lines.push(`pg_stat_activity not read: ${(err as Error).message}`);
    } finally {
      await c.end().catch(() => {});
    }
  }
  return lines.join('\n');
}

async function runOpNow(s: Subject, op: Op): Promise<Outcome> {
  switch (op.t) {
    case 'grant':
      await grantCredits({ accountId: s.accountId, amountMicros: op.micros, kind: 'PURCHASE', idempotencyKey: `p:${randomUUID()}` });
      return {};
    case 'refund':
      await grantCredits({ accountId: s.accountId, amountMicros: -op.micros, kind: 'REFUND', idempotencyKey: `r:${randomUUID()}` });
      return {};
    case 'promo': {
      const p = await createPromotion({ amountMicros: op.micros, creditTtlDays: op.ttlDays, name: 'prop' });
      await grantPromotion({ promotionId: p.id, accountId: s.accountId });
      return {};
    }
    case 'reserve': {
      const gen: Gen = { id: `gen-${randomUUID()}`, micros: op.micros, withKey: op.withKey, state: 'active' };
      try {
        // With the key: the chat path's admission for API keys (authenticated by hash, grouped per key while
        // one of its statements is in flight). Without: a principal authenticated before (a session).
        if (op.withKey) {
          await keyAdmissions.reserve({ keyHash: s.keyHash, model: 'switchboard/echo', provider: 'echo', generationId: gen.id, amountMicros: op.micros });
        } else await reserveCredits({ accountId: s.accountId, generationId: gen.id, amountMicros: op.micros });
      } catch (err) {
        if ((err as { code?: string }).code === 'payment_required') return { admitted: false };
        throw err;
      }
      s.gens.push(gen);
      return { admitted: true, gen };
    }
    case 'settle': {
      if (s.gens.length === 0) return {};
      const g = s.gens[op.pick % s.gens.length];
      const input = { generationId: g.id, accountId: s.accountId, costMicros: settleCost(g, op.percent), usage: usage(op.status) };
      if (op.viaFlush) {
        const written = settlements.enqueue(input);
        await settlements.flush();
        await written;
      } else await settleGeneration(input);
      credit.settled(g.id);
      return { gen: g };
    }
    case 'sweep':
      // The process died: its reservations and its credit leases expire and are swept; a new process starts.
      while ((await sweepExpiredReservations(new Date(s.startedAt + DAY_MS))) > 0);
      while ((await sweepExpiredLeases(new Date(s.startedAt + DAY_MS))) > 0);
      await credit.close(); // its timer must not outlive the test's database
      credit = new CreditLeases(90_000);
      keyAdmissions = new KeyAdmissionBatcher(credit);
      return {};
    case 'expire':
      while ((await expirePromotionGrants(new Date(s.startedAt + op.days * DAY_MS + DAY_MS / 2))) > 0);
      return {};
  }
}

/** What the ledger should hold: promotional credit by its lifetime in days (null: never expires). */
export class LedgerModel {
  paid = 0n;
  promo = new Map<number | null, bigint>();
  reserved = 0n;
  keyWindow = 0n;
  records = 0;

  constructor(readonly s: Subject) {}

  get promoTotal(): bigint {
    let t = 0n;
    for (const v of this.promo.values()) t += v;
    return t;
  }

  /** Applies `op` as the model predicts; returns whether a reserve should be admitted. */
  apply(op: Op, gen?: Gen): boolean | undefined {
    switch (op.t) {
      case 'grant':
        this.paid += op.micros;
        return;
      case 'refund':
        this.paid -= op.micros;
        return;
      case 'promo':
        this.promo.set(op.ttlDays, (this.promo.get(op.ttlDays) ?? 0n) + op.micros);
        return;
      case 'reserve': {
        const fits = this.paid + this.promoTotal - this.reserved - op.micros >= -this.s.floor;
        const keyFits = !op.withKey || this.s.keyLimit === null || this.keyWindow + op.micros <= this.s.keyLimit;
        if (fits && keyFits) {
          this.reserved += op.micros;
          if (op.withKey) this.keyWindow += op.micros;
        }
        return fits && keyFits;
      }
      case 'settle': {
        if (!gen) return;
        const cost = settleCost(gen, op.percent);
        if (gen.state === 'active') {
          this.reserved -= gen.micros;
          if (gen.withKey) this.keyWindow = max0(this.keyWindow - gen.micros + cost);
          this.charge(cost);
          this.records++;
          gen.state = 'settled';
        } else if (gen.state === 'expired') {
          if (gen.withKey) this.keyWindow += cost;
          this.charge(cost);
          gen.state = 'late';
        }
        return;
      }
      case 'sweep':
        for (const g of this.s.gens) {
          if (g.state !== 'active') continue;
          this.reserved -= g.micros;
          if (g.withKey) this.keyWindow = max0(this.keyWindow - g.micros);
          this.records++;
          g.state = 'expired';
        }
        return;
      case 'expire':
        for (const ttl of [...this.promo.keys()]) if (ttl !== null && ttl <= op.days) this.promo.delete(ttl);
        return;
    }
  }

  /** Promotional credit first, soonest expiry first (never-expiring last), the rest from paid credit. */
  private charge(cost: bigint) {
    let left = cost;
    const order = [...this.promo.keys()].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
    for (const ttl of order) {
      const have = this.promo.get(ttl)!;
      const take = have < left ? have : left;
      this.promo.set(ttl, have - take);
      left -= take;
    }
    this.paid -= left;
  }
}

const max0 = (v: bigint) => (v < 0n ? 0n : v);

export interface Snapshot {
  paid: bigint;
  promo: bigint;
  reserved: bigint;
  ledgerTotal: bigint;
  ledgerPaid: bigint;
  ledgerPromo: bigint;
  activeReserved: bigint;
  grantsRemaining: bigint;
  expiredRemaining: bigint;
  records: number;
  closedReservations: number;
  keyWindow: bigint;
  /** What the key's window should hold: active holds + settled costs of its reservations. */
  keyWindowExpected: bigint;
  /** What live credit leases hold and have not lent out (reservedMicros counts it; no generation does). */
  leaseSlack: bigint;
  /** Active reservations drawn from a lease: the key's window does not hold them (settlement adds their cost). */
  keyUnheldActive: bigint;
}

/** Everything the invariants need, in one statement. */
export async function snapshot(s: Subject): Promise<Snapshot> {
  const prisma = await db();
  const [r] = await prisma.$queryRaw<Snapshot[]>`
    SELECT a."paidMicros" AS paid, a."promoMicros" AS promo, a."reservedMicros" AS reserved,
      (SELECT COALESCE(sum("amountMicros"), 0)::bigint FROM "LedgerEntry" WHERE "accountId" = a.id) AS "ledgerTotal",
      (SELECT COALESCE(sum("paidMicros"), 0)::bigint FROM "LedgerEntry" WHERE "accountId" = a.id) AS "ledgerPaid",
      (SELECT COALESCE(sum("promoMicros"), 0)::bigint FROM "LedgerEntry" WHERE "accountId" = a.id) AS "ledgerPromo",
      (SELECT COALESCE(sum("amountMicros"), 0)::bigint FROM "Reservation" r WHERE "accountId" = a.id AND status = 'ACTIVE'
         AND NOT EXISTS (SELECT 1 FROM "CreditLease" l WHERE l.id = r."leaseId" AND l."releasedAt" IS NULL))
        + (SELECT COALESCE(sum("amountMicros"), 0)::bigint FROM "CreditLease" WHERE "accountId" = a.id AND "releasedAt" IS NULL) AS "activeReserved",
      (SELECT COALESCE(sum("remainingMicros"), 0)::bigint FROM "PromotionGrant" WHERE "accountId" = a.id AND "expiredAt" IS NULL) AS "grantsRemaining",
      (SELECT COALESCE(sum("remainingMicros"), 0)::bigint FROM "PromotionGrant" WHERE "accountId" = a.id AND "expiredAt" IS NOT NULL) AS "expiredRemaining",
      (SELECT count(*)::int FROM "UsageRecord" WHERE "accountId" = a.id) AS records,
      (SELECT count(*)::int FROM "Reservation" WHERE "accountId" = a.id AND status <> 'ACTIVE') AS "closedReservations",
      (SELECT "windowSpentMicros" FROM "ApiKey" WHERE id = ${s.keyId}) AS "keyWindow",
      (SELECT COALESCE(sum(l."amountMicros" - (SELECT COALESCE(sum(r."amountMicros"), 0) FROM "Reservation" r WHERE r."leaseId" = l.id AND r.status = 'ACTIVE')), 0)::bigint
         FROM "CreditLease" l WHERE l."accountId" = a.id AND l."releasedAt" IS NULL) AS "leaseSlack",
      (SELECT COALESCE(sum("amountMicros"), 0)::bigint FROM "Reservation" WHERE "apiKeyId" = ${s.keyId} AND status = 'ACTIVE' AND NOT "windowHeld") AS "keyUnheldActive",
      (SELECT COALESCE(sum(CASE WHEN status = 'ACTIVE' AND "windowHeld" THEN "amountMicros" WHEN status = 'SETTLED' THEN "settledMicros" ELSE 0 END), 0)::bigint
         FROM "Reservation" WHERE "apiKeyId" = ${s.keyId}) AS "keyWindowExpected"
    FROM "Account" a WHERE a.id = ${s.accountId}`;
  return r;
}

/** The invariants that hold after any interleaving; returns the first one broken, or null. */
export function brokenInvariant(x: Snapshot): string | null {
  if (x.paid + x.promo !== x.ledgerTotal) return `paid + promo (${x.paid + x.promo}) != sum of ledger entries (${x.ledgerTotal})`;
  if (x.paid !== x.ledgerPaid || x.promo !== x.ledgerPromo) return `buckets (${x.paid}, ${x.promo}) != ledger buckets (${x.ledgerPaid}, ${x.ledgerPromo})`;
  if (x.reserved !== x.activeReserved) return `reservedMicros (${x.reserved}) != ACTIVE reservations not drawn from a live lease + live leases (${x.activeReserved})`;
  if (x.grantsRemaining !== x.promo) return `grants' remaining (${x.grantsRemaining}) != promoMicros (${x.promo})`;
  if (x.expiredRemaining !== 0n) return `expired grants still hold ${x.expiredRemaining}`;
  if (x.promo < 0n) return `promoMicros is negative (${x.promo})`;
  if (x.records !== x.closedReservations) return `${x.records} usage records for ${x.closedReservations} closed reservations`;
  if (x.keyWindow !== x.keyWindowExpected) return `key window (${x.keyWindow}) != active holds + settled costs (${x.keyWindowExpected})`;
  return null;
}
