// Settlements (ledger charge + usage record + reservation release) are written after the client has its
// answer, in batches: one transaction for up to BATCH generations, so metering costs the chat path no
// database round trip of its own and the usage table is written in bulk. Nothing is dropped:
//   - a failed batch is retried item by item, so one bad item cannot hold the others back;
//   - an item that still fails waits with its own exponential backoff (capped) and is retried for as long
//     as the process lives, while ready items keep flowing in batches past it;
//   - retries drop references to a user, key or token deleted while the generation ran (a foreign key
//     violation would otherwise fail the item forever);
//   - a database that cannot even be opened is a failed drain, retried later, never an unhandled rejection
//     (which would crash the process and lose the whole queue).
// If the process dies first, each queued generation's reservation is still ACTIVE and the sweeper
// settles it (sweep-reservations.ts): recorded as interrupted, not charged. That window, from the end of a
// response to its flush, is the only way a generation's usage can be lost, and it costs us, not the customer.
import { db } from '@/server/db';
import { settleInTx, type SettleInput } from '@/server/ledger/settle-generation';
import { settleBatch } from '@/server/ledger/settle-batch';
import { maybeTriggerAutoTopUps } from '@/server/billing/maybe-trigger-auto-top-up';

const BATCH = 100;
const INTERVAL_MS = 25;
const MAX_BACKOFF_MS = 30_000;

interface Pending {
  input: SettleInput;
  attempts: number;
  /** Not retried before this time (ms epoch); 0 for a fresh item. */
  notBefore: number;
  resolve: () => void;
}

let queue: Pending[] = [];
let timer: NodeJS.Timeout | null = null;
let timerAt = 0;
let flushing: Promise<void> | null = null;
/** Consecutive drains that failed as a whole (database unreachable). */
let drainFailures = 0;
/** Shutdown: retry everything now, whatever its backoff. */
let ignoreBackoff = false;
/** Batch statements that failed as a whole (logged now and then; their items were settled one by one). */
let fastPathFailures = 0;

export function pendingSettlements(): number {
  return queue.length;
}

/** Queue a settlement; the promise resolves once it is committed (tests and shutdown wait on it). */
export function enqueueSettlement(input: SettleInput): Promise<void> {
  return new Promise((resolve) => {
    queue.push({ input, attempts: 0, notBefore: 0, resolve });
    if (queue.length >= BATCH) void flushSettlements();
    else schedule(INTERVAL_MS);
  });
}

function schedule(ms: number) {
  const at = Date.now() + ms;
  if (timer && timerAt <= at) return;
  if (timer) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(() => {
    timer = null;
    void flushSettlements();
  }, ms);
  timer.unref?.();
}

/** Writes every queued settlement that is due; never rejects. */
export function flushSettlements(): Promise<void> {
  flushing ??= drain()
    .then(() => {
      drainFailures = 0;
    })
    .catch((err: unknown) => {
      drainFailures++;
      if (drainFailures === 1 || drainFailures % 20 === 0) console.error(`usage flush failed (${drainFailures}×), will retry:`, (err as Error).message);
    })
    .finally(() => {
      flushing = null;
      if (queue.length) schedule(nextDelay());
    });
  return flushing;
}

function nextDelay(): number {
  if (drainFailures) return Math.min(MAX_BACKOFF_MS, 100 * 2 ** drainFailures);
  const soonest = Math.min(...queue.map((p) => p.notBefore));
  return Math.max(0, soonest - Date.now());
}

function backoff(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(attempts, 20));
}

async function drain(): Promise<void> {
  const prisma = await db();
  const failedNow = new Set<Pending>();
  for (;;) {
    const now = Date.now();
    const batch: Pending[] = [];
    for (const p of queue) {
      if (batch.length === BATCH) break;
      if (!failedNow.has(p) && (ignoreBackoff || p.notBefore <= now)) batch.push(p);
    }
    if (batch.length === 0) return;
    const done = new Set<Pending>();
    // Fast path: fresh items in one statement (ledger/settle-batch.ts), which holds the account's row lock
    // for milliseconds instead of a transaction's worth of round trips; what it leaves goes below.
    const fresh = batch.filter((p) => !p.attempts);
    if (fresh.length) {
      const settled = await settleBatch(fresh.map((p) => p.input)).catch((err: unknown) => {
        if (fastPathFailures++ % 100 === 0) console.error('usage flush: batch statement failed, settling item by item:', (err as Error).message);
        return new Set<string>();
      });
      for (const p of fresh) if (settled.has(p.input.generationId)) done.add(p);
    }
    const rest = batch.filter((p) => !done.has(p));
    try {
      if (rest.length) {
        await prisma.$transaction(async (tx) => {
          for (const p of rest) await settleInTx(tx, p.attempts ? { ...p.input, dropDanglingReferences: true } : p.input);
        });
      }
      for (const p of rest) done.add(p);
    } catch {
      // One bad item must not hold the others back: retry them one by one, checking references.
      for (const p of rest) {
        try {
          await prisma.$transaction((tx) => settleInTx(tx, { ...p.input, dropDanglingReferences: true }));
          done.add(p);
        } catch (itemErr) {
          p.attempts++;
          p.notBefore = Date.now() + backoff(p.attempts);
          failedNow.add(p);
          if (p.attempts === 1 || p.attempts % 20 === 0) {
            console.error(`settlement of ${p.input.generationId} failed (attempt ${p.attempts}), will retry:`, (itemErr as Error).message);
          }
        }
      }
    }
    queue = queue.filter((p) => !done.has(p));
    for (const p of done) p.resolve();
    // Balances just went down: accounts below their auto top-up threshold get one top-up (never throws).
    if (done.size) checkAutoTopUpsSoon(done);
  }
}

// The auto top-up check (a query) runs for the accounts charged in the last AUTO_TOP_UP_CHECK_MS, not
// after every batch: under load batches come every few milliseconds, and the check would cost the chat
// path more than the settlements themselves.
const AUTO_TOP_UP_CHECK_MS = 200;
const topUpCandidates = new Set<string>();
let topUpTimer: NodeJS.Timeout | null = null;

function checkAutoTopUpsSoon(done: Set<Pending>): void {
  for (const p of done) topUpCandidates.add(p.input.accountId);
  topUpTimer ??= setTimeout(checkAutoTopUpsNow, AUTO_TOP_UP_CHECK_MS);
  topUpTimer.unref?.();
}

function checkAutoTopUpsNow(): Promise<void> {
  if (topUpTimer) clearTimeout(topUpTimer);
  topUpTimer = null;
  const ids = [...topUpCandidates];
  topUpCandidates.clear();
  return ids.length ? maybeTriggerAutoTopUps(ids) : Promise.resolve(); // never throws
}

/** Starts nothing (flushes are scheduled on demand); returns a stop function that drains the queue. */
export function startUsageFlusher(): () => Promise<void> {
  return async () => {
    ignoreBackoff = true;
    try {
      const deadline = Date.now() + 15_000;
      while (queue.length && Date.now() < deadline) {
        await flushSettlements();
        if (queue.length) await new Promise((r) => setTimeout(r, 100));
      }
      if (queue.length) console.error(`usage flush: ${queue.length} settlement(s) not written at shutdown; the sweeper will close their reservations`);
      await checkAutoTopUpsNow();
    } finally {
      ignoreBackoff = false;
    }
  };
}
