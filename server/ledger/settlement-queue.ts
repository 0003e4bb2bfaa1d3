// The settlement queue. Settlements (ledger charge + usage record + reservation release) are written after
// the client has its answer, in batches: one transaction for up to BATCH generations, so metering costs the chat path no
// database round trip of its own and the usage table is written in bulk. Nothing is dropped:
//   - a failed batch is retried item by item, so one bad item cannot hold the others back;
//   - an item that still fails waits with its own exponential backoff (capped) and is retried for as long
//     as the process lives, while ready items keep flowing in batches past it;
//   - retries drop references to a user, key or token deleted while the generation ran (a foreign key
//     violation would otherwise fail the item forever);
//   - a database that cannot even be opened is a failed drain, retried later, never an unhandled rejection
//     (which would crash the process and lose the whole queue).
// One queue per process, owned by the process's runtime (server/runtime): both server bundles enqueue into
// it and shutdown drains it.
// If the process dies first, nothing is lost: each settlement was appended to the process's journal before
// the client saw its usage (settlement-journal.ts, written by handle-chat.ts), and the next start replays the
// journal through this queue (start-settlement-recovery.ts); settlement is idempotent per generation.
import { db } from '@/server/db';
import { settleInTx, type SettleInput } from '@/server/ledger/settle-generation';
import { settleBatch } from '@/server/ledger/settle-batch';
import { maybeTriggerAutoTopUps } from '@/server/billing/maybe-trigger-auto-top-up';
import { REFUSAL_WRITE_ATTEMPTS, writeRefusalRecords, type RefusalRecord } from './refusal-records';

const BATCH = 100;
// A busy account's settlement batch and its admissions lock the same rows (the account's, the key's), one
// transaction after another; every 100 ms (or each full batch) keeps that row free for the admissions most of
// the time. In the bench (one hot key, 500 req/s on PostgreSQL) 25 ms back to back gave +10.5 / +23 ms added
// p50 / p99 and 100 ms +3.3 / +11 ms. A settlement that waits is in the journal already (a crash loses nothing)
// and its reservation holds the request's worst case until then.
const INTERVAL_MS = 100;
const MAX_BACKOFF_MS = 30_000;
/** Shutdown gives up (the sweeper then closes the reservations) after this long. */
const DRAIN_DEADLINE_MS = 15_000;
// The auto top-up check (a query) runs for the accounts charged in the last AUTO_TOP_UP_CHECK_MS, not
// after every batch: under load a batch goes every 100 ms or sooner, and the check would cost the chat
// path more than the settlements themselves.
const AUTO_TOP_UP_CHECK_MS = 500;
// Refusal records waiting to be written are capped: a client hammering a rate limit must not grow memory
// without bound; beyond the cap new refusals are counted and not recorded.
const MAX_PENDING_REFUSALS = 10_000;
const REFUSAL_RETRY_MS = 1_000;

interface Pending {
  input: SettleInput;
  attempts: number;
  /** Not retried before this time (ms epoch); 0 for a fresh item. */
  notBefore: number;
  resolve: () => void;
}

function backoff(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempts, 20));
}

export class SettlementQueue {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private flushing: Promise<void> | null = null;
  /** A flush asked for while one ran: it starts when that one ends. */
  private flushAgain: Promise<void> | null = null;
  /** Consecutive drains that failed as a whole (database unreachable). */
  private drainFailures = 0;
  /** Shutdown: retry everything now, whatever its backoff. */
  private ignoreBackoff = false;
  /** Batch statements that failed as a whole (logged now and then; their items were settled one by one). */
  private fastPathFailures = 0;
  private readonly topUpCandidates = new Set<string>();
  private topUpTimer: NodeJS.Timeout | null = null;
  private refusals: { record: RefusalRecord; attempts: number }[] = [];
  private refusalsDropped = 0;

  /** @param intervalMs how long a settlement waits for others to join its batch (tests lengthen it, to decide when flushes run). */
  constructor(private readonly intervalMs = INTERVAL_MS) {}

  /** Settlements queued and not yet committed. */
  pending(): number {
    return this.queue.length;
  }

  /**
   * Whether a queued settlement of this account waits to be committed: until it is, its reservation still holds
   * the account's credit (key-admission-batcher.ts flushes before it refuses such an account for credit).
   */
  holdsCreditOf(accountId: string): boolean {
    return this.queue.some((p) => p.input.accountId === accountId);
  }

  /** Queue a settlement; the promise resolves once it is committed (tests and shutdown wait on it). */
  enqueue(input: SettleInput): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ input, attempts: 0, notBefore: 0, resolve });
      if (this.queue.length >= BATCH) void this.flush();
      else this.schedule(this.intervalMs);
    });
  }

  /**
   * Queue the record of a request refused at admission (refusal-records.ts): written with the next batch,
   * never charged. Best effort: capped in memory, given up after a few failed writes.
   */
  recordRefusal(record: RefusalRecord): void {
    if (this.refusals.length >= MAX_PENDING_REFUSALS) {
      if (this.refusalsDropped++ % 1000 === 0) console.error(`usage flush: ${this.refusalsDropped} refusal record(s) not kept (${MAX_PENDING_REFUSALS} waiting)`);
      return;
    }
    this.refusals.push({ record, attempts: 0 });
    this.schedule(this.intervalMs);
  }

  /**
   * Writes every queued settlement that is due; never rejects. Called while a flush runs, it resolves after
   * one more flush that starts once that one is done: a flush writes what was due when it started (see
   * writeDue), and the caller's settlements may have been queued after that.
   */
  flush(): Promise<void> {
    if (this.flushing) return (this.flushAgain ??= this.flushing.then(() => {
      this.flushAgain = null;
      return this.flush();
    }));
    this.flushing = this.writeDue()
      .then(() => {
        this.drainFailures = 0;
      })
      .catch((err: unknown) => {
        this.drainFailures++;
        if (this.drainFailures === 1 || this.drainFailures % 20 === 0) console.error(`usage flush failed (${this.drainFailures}×), will retry:`, (err as Error).message);
      })
      .finally(() => {
        this.flushing = null;
        if (this.flushAgain) return; // the next flush follows at once
        if (this.queue.length) this.schedule(this.nextDelay());
        else if (this.refusals.length) this.schedule(REFUSAL_RETRY_MS);
      });
    return this.flushing;
  }

  /** Shutdown: writes everything still queued, whatever its backoff (for up to 15 s), then checks auto top-ups. */
  async drain(): Promise<void> {
    this.ignoreBackoff = true;
    try {
      const deadline = Date.now() + DRAIN_DEADLINE_MS;
      while ((this.queue.length || this.refusals.length) && Date.now() < deadline) {
        await this.flush();
        if (this.queue.length) await new Promise((r) => setTimeout(r, 100));
      }
      if (this.queue.length) console.error(`usage flush: ${this.queue.length} settlement(s) not written at shutdown; the sweeper will close their reservations`);
      // Nothing left to write: a flush still scheduled would only open the database again after its close.
      else if (!this.refusals.length && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      await this.checkAutoTopUpsNow();
    } finally {
      this.ignoreBackoff = false;
    }
  }

  private schedule(ms: number): void {
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, ms);
    this.timer.unref?.();
  }

  /**
   * After a flush: what queued meanwhile waits for the next interval (unless a whole batch waits), so the
   * settlements of a busy server go in one statement every INTERVAL_MS rather than back to back, a statement
   * per few requests (each holding a connection and the database's CPU that admissions wait for).
   */
  private nextDelay(): number {
    if (this.drainFailures) return Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.drainFailures);
    if (this.queue.length >= BATCH) return 0;
    let soonest = Infinity;
    for (const p of this.queue) if (p.notBefore < soonest) soonest = p.notBefore;
    return Math.max(this.intervalMs, soonest - Date.now());
  }

  /**
   * Writes the queued refusal records: the fresh ones (queued since the last write), or with `retries` also
   * those that failed before (a later flush, so a database blip is not retried in a tight loop).
   */
  private async writeRefusals(retries: boolean): Promise<void> {
    const taken = retries ? this.refusals : this.refusals.filter((r) => r.attempts === 0);
    if (taken.length === 0) return;
    this.refusals = retries ? [] : this.refusals.filter((r) => r.attempts > 0);
    let failed: RefusalRecord[];
    try {
      failed = await writeRefusalRecords(taken.map((r) => r.record));
    } catch {
      failed = taken.map((r) => r.record);
    }
    const retry = taken.filter((r) => failed.includes(r.record) && ++r.attempts < REFUSAL_WRITE_ATTEMPTS);
    if (failed.length > retry.length) console.error(`usage flush: ${failed.length - retry.length} refusal record(s) given up after ${REFUSAL_WRITE_ATTEMPTS} attempts`);
    this.refusals.unshift(...retry);
  }

  /**
   * Writes the settlements that are due when it starts, up to BATCH per statement. What is queued while it
   * runs waits for the next flush, INTERVAL_MS later (nextDelay): re-reading the queue after each statement
   * made a busy server's settlements one statement after another, each of the few generations that had
   * arrived during the one before (pg_stat_statements at 500 req/s: 175 settlement statements a second of ~3
   * generations each, a third of a database core, where 10 of ~50 will do).
   */
  private async writeDue(): Promise<void> {
    const startedAt = Date.now();
    const due = this.queue.filter((p) => this.ignoreBackoff || p.notBefore <= startedAt);
    const prisma = await db();
    await this.writeRefusals(true);
    for (let at = 0; at < due.length; at += BATCH) {
      const batch = due.slice(at, at + BATCH);
      const done = new Set<Pending>();
      // Fast path: fresh items in one statement (ledger/settle-batch.ts), which holds the account's row lock
      // for milliseconds instead of a transaction's worth of round trips; what it leaves goes below.
      const fresh = batch.filter((p) => !p.attempts);
      if (fresh.length) {
        const settled = await settleBatch(fresh.map((p) => p.input)).catch((err: unknown) => {
          if (this.fastPathFailures++ % 100 === 0) console.error('usage flush: batch statement failed, settling item by item:', (err as Error).message);
          return new Set<string>();
        });
        for (const p of fresh) if (settled.has(p.input.generationId)) done.add(p);
      }
      const rest = batch.filter((p) => !done.has(p));
      try {
        if (rest.length) {
          await prisma.$transaction(async (tx) => {
            for (const p of rest) await settleInTx(tx, p.input);
          });
        }
        for (const p of rest) done.add(p);
      } catch {
        // One bad item must not hold the others back: retry them one by one.
        for (const p of rest) {
          try {
            await prisma.$transaction((tx) => settleInTx(tx, p.input));
            done.add(p);
          } catch (itemErr) {
            p.attempts++;
            p.notBefore = Date.now() + backoff(p.attempts);
            if (p.attempts === 1 || p.attempts % 20 === 0) {
              console.error(`settlement of ${p.input.generationId} failed (attempt ${p.attempts}), will retry:`, (itemErr as Error).message);
            }
          }
        }
      }
      this.queue = this.queue.filter((p) => !done.has(p));
      for (const p of done) p.resolve();
      // Balances just went down: accounts below their auto top-up threshold get one top-up (never throws).
      if (done.size) this.checkAutoTopUpsSoon(done);
    }
    // Refusals queued while this flush ran are written by it too (a caller awaiting flush() expects them).
    if (this.refusals.some((r) => r.attempts === 0)) await this.writeRefusals(false);
  }

  private checkAutoTopUpsSoon(done: Set<Pending>): void {
    for (const p of done) this.topUpCandidates.add(p.input.accountId);
    this.topUpTimer ??= setTimeout(() => void this.checkAutoTopUpsNow(), AUTO_TOP_UP_CHECK_MS);
    this.topUpTimer.unref?.();
  }

  private checkAutoTopUpsNow(): Promise<void> {
    if (this.topUpTimer) clearTimeout(this.topUpTimer);
    this.topUpTimer = null;
    const ids = [...this.topUpCandidates];
    this.topUpCandidates.clear();
    return ids.length ? maybeTriggerAutoTopUps(ids) : Promise.resolve(); // never throws
  }
}
