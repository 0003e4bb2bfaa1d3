// Reservations left ACTIVE past their expiry belong to a process that died mid-generation: a live process
// renews its reservations' leases until they are settled (reservation-leases.ts). The sweeper closes each
// one exactly once (settleInTx only acts on ACTIVE rows), releasing the hold, and records the generation as
// interrupted at no charge: no final usage of it reached a client (a generation whose usage did is in the
// dead process's settlement journal, replayed at the next start and charged then — settleLate). If the
// process was alive after all (its renewals failed for longer than a lease), its settlement still lands
// later and is charged once (settleLate).
import { db } from '@/server/db';
import { expirePromotionGrants } from '@/server/promotions/expire-promotion-grants';
import type { Tx } from './post-ledger-entry';
import { sweepExpiredLeases } from './credit-leases';
import { DEFAULT_SWEEP_INTERVAL_MS } from './reservation-leases';
import { releaseHold, settleInTx, type ClosedReservation } from './settle-generation';

/** latencyMs is a 4-byte integer: a reservation found weeks late must not make its sweep fail forever. */
const MAX_INT4 = 2_147_483_647;

export async function sweepExpiredReservations(now = new Date(), limit = 100): Promise<number> {
  const prisma = await db();
  const expired = await prisma.reservation.findMany({
    where: { status: 'ACTIVE', expiresAt: { lt: now } },
    select: { generationId: true, accountId: true, apiKeyId: true, userId: true, authTokenId: true, model: true, provider: true, createdAt: true },
    take: limit,
  });
  let n = 0;
  for (const r of expired) {
    const result = await prisma.$transaction(async (tx) => {
      const existing = await tx.usageRecord.findUnique({ where: { id: r.generationId }, select: { id: true } });
      if (existing) {
        // Usage already written (should not happen: they commit together); release the hold without a
        // second record. The hold must leave Account.reservedMicros and the key's window too.
        await closeAndRelease(tx, r.generationId, r.accountId);
        return { settled: false };
      }
      return settleInTx(tx, {
        generationId: r.generationId,
        accountId: r.accountId,
        costMicros: 0n,
        closeAs: 'EXPIRED',
        usage: {
          apiKeyId: r.apiKeyId, userId: r.userId, authTokenId: r.authTokenId, model: r.model || 'unknown', provider: r.provider || 'unknown', promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0,
          reasoningTokens: 0, latencyMs: Math.min(now.getTime() - r.createdAt.getTime(), MAX_INT4), status: 'ERROR', streamed: false, errorCode: 'interrupted',
          errorMessage: 'The server stopped before this generation finished; nothing was charged.',
        },
      });
    });
    if (result.settled) n++;
  }
  return n;
}

async function closeAndRelease(tx: Tx, generationId: string, accountId: string): Promise<void> {
  const closed = await tx.$queryRaw<ClosedReservation[]>`
    UPDATE "Reservation" SET status = 'EXPIRED'::"ReservationStatus", "settledMicros" = 0, "settledAt" = now()
    WHERE "generationId" = ${generationId} AND status = 'ACTIVE'::"ReservationStatus"
    RETURNING "amountMicros", "apiKeyId", "membershipId", "leaseId", "windowHeld"`;
  if (closed.length === 0) return;
  await releaseHold(tx, accountId, closed[0], 0n);
}

/**
 * The periodic maintenance loop started by server/main.ts: reservations of dead processes, then
 * promotional credit past its expiry, then the caller's housekeeping steps (server/main.ts: stored Responses API responses past their 30 days). Each step logs its own failure and the loop carries on. The interval
 * bounds how long a dead process's reservations outlive their lease (SWEEP_INTERVAL_MS).
 */
/** A step of another domain's housekeeping run on the same loop (e.g. expired stored responses); returns rows handled. */
export interface SweepStep {
  name: string;
  step: () => Promise<number>;
}

export function startReservationSweeper(intervalMs = DEFAULT_SWEEP_INTERVAL_MS, housekeeping: readonly SweepStep[] = []): () => void {
  // After a crash under load there may be thousands of reservations to close: keep taking batches until
  // one comes back short (bounded, so one tick cannot run forever).
  const drainAll = async (step: () => Promise<number>, name: string) => {
    try {
      for (let i = 0; i < 50 && (await step()) > 0; i++);
    } catch (err) {
      console.error(`${name}:`, (err as Error).message);
    }
  };
  let running = false;
  const run = async () => {
    if (running) return; // a slow tick is not overlapped by the next
    running = true;
    try {
      await drainAll(() => sweepExpiredReservations(), 'reservation sweeper');
      await drainAll(() => sweepExpiredLeases(), 'credit lease sweeper');
      await drainAll(() => expirePromotionGrants(), 'promotion expiry sweeper');
      for (const h of housekeeping) await drainAll(h.step, h.name);
    } finally {
      running = false;
    }
  };
  void run();
  const t = setInterval(run, intervalMs);
  t.unref();
  return () => clearInterval(t);
}
