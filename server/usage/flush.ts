// Settlements (ledger charge + usage record + reservation release) are written after the client has its
// answer, in batches: one transaction for up to BATCH generations, so metering costs the chat path no
// database round trip of its own and the usage table is written in bulk. Nothing is dropped: a failed
// batch is retried item by item with backoff, and items stay queued until written. If the process dies
// first, each generation's reservation is still ACTIVE and the sweeper settles it (sweep-reservations.ts).
import { db } from '@/server/db';
import { settleInTx, type SettleInput } from '@/server/ledger/settle-generation';

const BATCH = 100;
const INTERVAL_MS = 25;

interface Pending {
  input: SettleInput;
  attempts: number;
  resolve: () => void;
}

let queue: Pending[] = [];
let timer: NodeJS.Timeout | null = null;
let flushing: Promise<void> | null = null;
let failures = 0;

export function pendingSettlements(): number {
  return queue.length;
}

/** Queue a settlement; the promise resolves once it is committed (tests and shutdown wait on it). */
export function enqueueSettlement(input: SettleInput): Promise<void> {
  return new Promise((resolve) => {
    queue.push({ input, attempts: 0, resolve });
    if (queue.length >= BATCH) void flushSettlements();
    else schedule(INTERVAL_MS);
  });
}

function schedule(ms: number) {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    void flushSettlements();
  }, ms);
  timer.unref?.();
}

export function flushSettlements(): Promise<void> {
  flushing ??= drain().finally(() => {
    flushing = null;
    if (queue.length) schedule(failures ? Math.min(5_000, 100 * 2 ** failures) : 0);
  });
  return flushing;
}

async function drain(): Promise<void> {
  const prisma = await db();
  while (queue.length) {
    const batch = queue.slice(0, BATCH);
    try {
      await prisma.$transaction(async (tx) => {
        for (const p of batch) await settleInTx(tx, p.input);
      });
      queue = queue.slice(batch.length);
      failures = 0;
      for (const p of batch) p.resolve();
    } catch (err) {
      // One bad item must not hold the others back: retry them one by one.
      let failed = 0;
      for (const p of batch) {
        try {
          await prisma.$transaction((tx) => settleInTx(tx, p.input));
          queue.splice(queue.indexOf(p), 1);
          p.resolve();
        } catch (itemErr) {
          failed++;
          p.attempts++;
          if (p.attempts === 1 || p.attempts % 20 === 0) {
            console.error(`settlement of ${p.input.generationId} failed (attempt ${p.attempts}), will retry:`, (itemErr as Error).message);
          }
        }
      }
      if (failed) {
        failures++;
        return; // back off; the finally in flushSettlements reschedules
      }
      void err;
    }
  }
}

/** Starts nothing (flushes are scheduled on demand); returns a stop function that drains the queue. */
export function startUsageFlusher(): () => Promise<void> {
  return async () => {
    const deadline = Date.now() + 15_000;
    while (queue.length && Date.now() < deadline) {
      await flushSettlements();
      if (queue.length) await new Promise((r) => setTimeout(r, 100));
    }
  };
}
