// Credit leases: a busy account's admissions without its row lock.
//
// Every admission holds its worst-case cost on the paying account (reserve.ts), which locks the account's
// row until the statement commits; the settlement batch locks the same row. Under load on one account (a
// company's organization behind many developers and agents) admissions then queue behind each other and
// behind settlement, and that wait is most of the latency Switchboard adds. So a process that admits an
// account often takes a lease on part of its balance — one small statement: the account's reservedMicros
// and a CreditLease row go up by the same amount — and admits that account's requests against the lease in
// memory: the admission statement still authenticates the key and checks every policy, and writes the
// reservation (naming the lease), but locks and updates no account, key or member row.
//
// Invariant (database): Account.reservedMicros = Σ ACTIVE reservations not drawn from a live lease
//                                              + Σ live leases' amountMicros.
// A drawn reservation's amount stays inside its lease's amount until it is settled; settlement takes it out
// of both (settle-batch.ts, settle-generation.ts releaseHold). In memory, `remaining` = the lease's amount −
// what this process drew and has not settled yet: the lease covers every request drawn from it.
//
// Bounds:
//   - A lease takes at most a quarter of what the account can still spend (LEASE_SHARE) and at most
//     TARGET_REQUESTS times the request's amount, so other processes and requests keep room; an account
//     close to its limit gets no lease and is decided exactly, per request, as before.
//   - A lease unused for IDLE_MS, with nothing drawn unsettled, is returned (the account's available credit
//     is whole again); at shutdown every lease is returned.
//   - A dead process's lease is renewed no more and expires with its reservations (reservation-leases.ts):
//     the sweeper returns its amount (sweepExpiredLeases), within the same two minutes.
//   - Keys and members with a spend limit are never drawn from a lease (their windows need the row lock).
import { database } from '@/server/db';
import { newRowId, ts } from './reserve';

/** A lease holds up to this many times the request's amount (it is topped up when half is used). */
const TARGET_REQUESTS = 64n;
/** …and at most 1/LEASE_SHARE of what the account can still spend. */
const LEASE_SHARE = 4n;
/** A lease worth fewer than this many requests is not taken: the account is decided per request. */
const MIN_REQUESTS = 4n;
/** Admissions of an account within this window make it busy enough to lease for. */
const BUSY_WINDOW_MS = 1_000;
/** A lease not drawn from for this long (and with nothing drawn unsettled) is returned. */
export const IDLE_MS = 10_000;
/** After a refused top-up (the account is close to its limit), no new attempt for this long. */
const COOLDOWN_MS = 5_000;
const MAX_ACCOUNTS = 10_000;
/** How often idle leases are looked for. */
const TICK_MS = 2_500;

// Lock order as everywhere (settle-batch.ts): CreditLease, then Account.
const TOP_UP_SQL = `
  WITH l0 AS MATERIALIZED (
    SELECT id FROM "CreditLease" WHERE id = $2 AND "accountId" = $1 AND "releasedAt" IS NULL FOR NO KEY UPDATE
  ), acct AS MATERIALIZED (
    SELECT id, LEAST($3::bigint, ("paidMicros" + "promoMicros" - "reservedMicros" + "creditFloorMicros") / ${LEASE_SHARE}) AS take
    FROM "Account" WHERE id = $1 FOR NO KEY UPDATE
  ), ok AS MATERIALIZED (
    SELECT id, take FROM acct WHERE take >= $4::bigint AND ($5::boolean OR EXISTS (SELECT 1 FROM l0))
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" + ok.take FROM ok WHERE "Account".id = ok.id RETURNING ok.take
  ), l AS (
    INSERT INTO "CreditLease" (id, "accountId", "amountMicros", "expiresAt")
    SELECT $2, $1, take, $6::timestamp(3) FROM ok
    ON CONFLICT (id) DO UPDATE SET "amountMicros" = "CreditLease"."amountMicros" + EXCLUDED."amountMicros", "expiresAt" = EXCLUDED."expiresAt"
    RETURNING id
  )
  SELECT (SELECT take::text FROM a) AS take, (SELECT count(*) FROM l)::int AS leases`;

/** Returns `$2` micro-dollars of a live lease to its account ($3 true: all of it, and the lease is released). */
const RETURN_SQL = `
  WITH l AS MATERIALIZED (
    SELECT id, "accountId", LEAST("amountMicros", CASE WHEN $3::boolean THEN "amountMicros" ELSE $2::bigint END) AS back
    FROM "CreditLease" WHERE id = $1 AND "releasedAt" IS NULL FOR NO KEY UPDATE
  ), a AS (
    UPDATE "Account" SET "reservedMicros" = "reservedMicros" - l.back FROM l WHERE "Account".id = l."accountId" RETURNING l.back
  ), u AS (
    UPDATE "CreditLease" c SET "amountMicros" = c."amountMicros" - l.back, "releasedAt" = CASE WHEN $3::boolean THEN $4::timestamp(3) END
    FROM l WHERE c.id = l.id RETURNING c.id
  )
  SELECT (SELECT back::text FROM a) AS back, (SELECT count(*) FROM u)::int AS n`;

const RENEW_SQL = `
  UPDATE "CreditLease" SET "expiresAt" = $2::timestamp(3)
  WHERE id = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb))) AND "releasedAt" IS NULL`;

const EXPIRED_SQL = `SELECT id FROM "CreditLease" WHERE "releasedAt" IS NULL AND "expiresAt" < $1::timestamp(3) ORDER BY "expiresAt" LIMIT $2`;

/** Returns a lease's whole amount to its account and marks it released (once: a released lease is skipped). */
export async function releaseLease(leaseId: string, now = new Date()): Promise<bigint> {
  const { rows } = await (await database()).sql.query<{ back: string | null }>(RETURN_SQL, [leaseId, '0', true, ts(now)], { name: 'sb_lease_return' });
  return BigInt(rows[0]?.back ?? '0');
}

/** Leases of dead processes (past their expiry): each is released, its amount back on its account. */
export async function sweepExpiredLeases(now = new Date(), limit = 100): Promise<number> {
  const { rows } = await (await database()).sql.query<{ id: string }>(EXPIRED_SQL, [ts(now), limit]);
  let n = 0;
  for (const { id } of rows) {
    await releaseLease(id, now);
    n++;
  }
  return n;
}

interface Lease {
  accountId: string;
  /** The lease row's id (a new lease gets its id before the row exists). */
  id: string;
  /** Live in the database (its first top-up committed). */
  live: boolean;
  /** The lease's amount minus what this process drew and has not settled. */
  remaining: bigint;
  /** Draws not yet settled. */
  inFlight: number;
  lastDrawAt: number;
  /** Admissions of the account decided per request lately (to tell a busy account). */
  recentAdmissions: number;
  recentSince: number;
  /** The top-up statement in flight, if any. */
  toppingUp: Promise<void> | null;
  cooldownUntil: number;
}

/** A request's draw: the lease it names and the amount taken from the lease in memory. */
export interface LeaseDraw {
  leaseId: string;
  accountId: string;
  amountMicros: bigint;
}

/** This process's credit leases (one object per process, owned by its ReservationLeases). */
export class CreditLeases {
  private readonly byAccount = new Map<string, Lease>();
  /** Unsettled draws by generation. */
  private readonly draws = new Map<string, Lease>();
  /**
   * Returns in flight by account (an idle lease, or a top-up that landed after its lease was forgotten): the
   * lease is no longer in byAccount but the account still holds its amount until the statement commits, so a
   * refusal for credit meanwhile waits for it (giveBack) rather than answer 402 to an account that can pay.
   */
  private readonly returning = new Map<string, Promise<void>>();
  private closed = false;
  private timer: NodeJS.Timeout | null = null;
  private lastRenewal = 0;

  constructor(
    private readonly leaseMs: number,
    private readonly enabled = true,
  ) {}

  /**
   * Takes `amountMicros` from this process's lease on the account, when it has one that covers it; else null
   * (the request is decided per request). `eligible`: the key and member have no spend limit (as last seen).
   */
  draw(accountId: string | undefined, generationId: string, amountMicros: bigint, eligible: boolean, now = Date.now()): LeaseDraw | null {
    if (!this.enabled || this.closed || !accountId || !eligible) return null;
    const l = this.byAccount.get(accountId);
    if (!l || !l.live || l.remaining < amountMicros) {
      if (l?.live) this.topUp(l, amountMicros, now); // running low: more for the next requests
      return null;
    }
    l.remaining -= amountMicros;
    l.inFlight++;
    l.lastDrawAt = now;
    this.draws.set(generationId, l);
    if (l.remaining * 2n < amountMicros * TARGET_REQUESTS) this.topUp(l, amountMicros, now);
    return { leaseId: l.id, accountId, amountMicros };
  }

  /**
   * The admission statement answered a drawn request: `reservedMicros` is what it actually holds (null: it
   * was not admitted from the lease, the draw goes back), `leaseLive` false when the lease is gone.
   */
  decided(d: LeaseDraw, generationId: string, drawn: boolean, reservedMicros: bigint | null, leaseLive: boolean): void {
    const l = this.byAccount.get(d.accountId);
    if (!l || l.id !== d.leaseId) {
      // The lease was forgotten or replaced meanwhile: a request not drawn from it has nothing to settle against it.
      if (!drawn || reservedMicros === null) this.draws.delete(generationId);
      return;
    }
    if (!leaseLive) {
      // Released behind this process's back (its renewals failed for a whole lease): forget it.
      this.byAccount.delete(d.accountId);
      this.draws.delete(generationId);
      return;
    }
    if (!drawn || reservedMicros === null) {
      l.remaining += d.amountMicros;
      l.inFlight--;
      this.draws.delete(generationId);
      return;
    }
    l.remaining += d.amountMicros - reservedMicros; // what the statement held may be less (BYOK, policy)
  }

  /** The remaining credit of the account's lease (early dispatch's headroom for a drawn request). */
  remaining(accountId: string): bigint {
    return this.byAccount.get(accountId)?.remaining ?? 0n;
  }

  /** A request of the account was decided per request (not drawn): a busy account gets a lease. */
  admittedPerRequest(accountId: string, amountMicros: bigint, eligible: boolean, now = Date.now()): void {
    if (!this.enabled || this.closed || !eligible || amountMicros <= 0n) return;
    let l = this.byAccount.get(accountId);
    if (!l) {
      if (this.byAccount.size >= MAX_ACCOUNTS) {
        // Accounts seen once and not since make room (a live lease is only dropped by its idle return).
        for (const [id, other] of this.byAccount) if (!other.live && !other.toppingUp && now - other.recentSince > BUSY_WINDOW_MS) this.byAccount.delete(id);
        if (this.byAccount.size >= MAX_ACCOUNTS) return;
      }
      l = { accountId, id: newRowId(), live: false, remaining: 0n, inFlight: 0, lastDrawAt: now, recentAdmissions: 0, recentSince: now, toppingUp: null, cooldownUntil: 0 };
      this.byAccount.set(accountId, l);
    }
    if (now - l.recentSince > BUSY_WINDOW_MS) {
      l.recentSince = now;
      l.recentAdmissions = 0;
    }
    if (++l.recentAdmissions >= 2) this.topUp(l, amountMicros, now);
  }

  /** A generation's settlement committed: a drawn one no longer counts against its lease's return. */
  settled(generationId: string): void {
    const l = this.draws.get(generationId);
    if (!l) return;
    this.draws.delete(generationId);
    l.inFlight--;
  }

  /** The live leases' ids (renewed by this object's own timer, every third of the lease, as reservations are). */
  liveIds(): string[] {
    const ids: string[] = [];
    for (const l of this.byAccount.values()) if (l.live) ids.push(l.id);
    return ids;
  }

  /** Extends every live lease to now + lease, in one statement. */
  async renew(until: Date): Promise<void> {
    const ids = this.liveIds();
    if (ids.length) await (await database()).sql.query(RENEW_SQL, [JSON.stringify(ids), ts(until)], { name: 'sb_renew_credit_leases' });
  }

  /** Returns idle leases (nothing drawn for IDLE_MS, nothing unsettled); forgets quiet accounts. */
  async returnIdle(now = Date.now()): Promise<void> {
    for (const l of [...this.byAccount.values()]) {
      if (now - l.lastDrawAt < IDLE_MS || l.inFlight > 0 || l.toppingUp) continue;
      this.byAccount.delete(l.accountId);
      if (l.live) await this.tracked(l.accountId, this.returnAll(l));
    }
  }

  /**
   * A request decided per request was refused for credit while this process's lease on the account holds
   * some: what the lease has not lent out goes back to the account (after any top-up in flight), so the
   * retry sees the account as it would be without leases. Returns whether anything went back.
   */
  async giveBack(accountId: string): Promise<boolean> {
    // A lease on its way back (its successor may already be in byAccount): the refusal saw it still held.
    const returning = this.returning.get(accountId);
    if (returning) await returning;
    const l = this.byAccount.get(accountId);
    if (!l) return !!returning;
    await l.toppingUp;
    l.cooldownUntil = Date.now() + COOLDOWN_MS; // close to its limit: no new lease for a while
    if (!l.live || l.remaining <= 0n) return !!returning;
    const amount = l.remaining;
    l.remaining = 0n;
    try {
      const { rows } = await (await database()).sql.query<{ back: string | null }>(RETURN_SQL, [l.id, amount.toString(), false, ts(new Date())], { name: 'sb_lease_return' });
      return BigInt(rows[0]?.back ?? '0') > 0n || !!returning;
    } catch (err) {
      // Still in the lease: it goes back with the whole lease (idle return, shutdown, or the sweeper).
      console.error('credit lease: giving credit back failed:', (err as Error).message);
      return !!returning;
    }
  }

  /** Shutdown (after the settlements were written): every lease goes back to its account. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // A top-up still in the database lands first (its lease is then returned with the others).
    await Promise.all([...this.byAccount.values()].map((l) => l.toppingUp));
    for (const l of [...this.byAccount.values()]) {
      this.byAccount.delete(l.accountId);
      if (l.live) await this.tracked(l.accountId, this.returnAll(l));
    }
  }

  /**
   * While a lease is live: every TICK_MS idle leases are returned, and every lease/3 the live ones are
   * renewed (a dead process's stop being renewed and expire; the sweeper returns them).
   */
  private startTimer(): void {
    if (this.timer || this.closed) return;
    this.lastRenewal = Date.now();
    this.timer = setInterval(() => void this.tick(), Math.min(TICK_MS, Math.max(10, Math.floor(this.leaseMs / 3))));
    this.timer.unref();
  }

  private async tick(now = Date.now()): Promise<void> {
    try {
      await this.returnIdle(now);
      if (now - this.lastRenewal >= this.leaseMs / 3) {
        this.lastRenewal = now;
        await this.renew(new Date(now + this.leaseMs));
      }
    } catch (err) {
      console.error('credit leases: renewal failed, will retry:', (err as Error).message);
    }
    if (this.liveIds().length === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** `work` (a return of the account's credit) is what a refusal for credit on the account waits for until it ends. */
  private tracked(accountId: string, work: Promise<void>): Promise<void> {
    const p = work.finally(() => {
      if (this.returning.get(accountId) === p) this.returning.delete(accountId);
    });
    this.returning.set(accountId, p);
    return p;
  }

  private async returnAll(l: Lease): Promise<void> {
    try {
      await releaseLease(l.id);
    } catch (err) {
      // Not returned now: it expires without renewals and the sweeper returns it.
      console.error('credit lease: returning it failed, it will expire:', (err as Error).message);
    }
  }

  private topUp(l: Lease, amountMicros: bigint, now: number): void {
    if (l.toppingUp || now < l.cooldownUntil || this.closed) return;
    const want = amountMicros * TARGET_REQUESTS - (l.remaining > 0n ? l.remaining : 0n);
    const expires = ts(new Date(Date.now() + this.leaseMs));
    l.toppingUp = (async () => {
      try {
        const { rows } = await (await database()).sql.query<{ take: string | null }>(
          TOP_UP_SQL,
          [l.accountId, l.id, want.toString(), (amountMicros * MIN_REQUESTS).toString(), !l.live, expires],
          { name: 'sb_lease_top_up' },
        );
        const take = rows[0]?.take ? BigInt(rows[0].take) : 0n;
        if (take > 0n && this.byAccount.get(l.accountId) === l) {
          l.live = true;
          l.remaining += take;
          l.lastDrawAt = Date.now();
          this.startTimer();
        } else if (take > 0n) {
          await this.tracked(l.accountId, this.returnAll(l)); // forgotten meanwhile (shutdown, idle): give it back at once
        } else {
          l.cooldownUntil = Date.now() + COOLDOWN_MS;
        }
      } catch (err) {
        l.cooldownUntil = Date.now() + COOLDOWN_MS;
        console.error('credit lease: top-up failed:', (err as Error).message);
      } finally {
        l.toppingUp = null;
      }
    })();
  }
}
