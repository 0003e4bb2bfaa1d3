// Reservations left ACTIVE past their expiry belong to a process that died mid-generation. The sweeper
// closes each one exactly once (settleInTx only acts on ACTIVE rows) and records the generation as
// interrupted. What was generated before the crash is unknown here, so nothing is charged: the
// documented trade-off is that a crash costs us, never the customer.
import { db } from '@/server/db';
import { settleInTx } from './settle-generation';

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
        // Usage already written (should not happen: they commit together); just release the hold.
        await tx.reservation.updateMany({ where: { generationId: r.generationId, status: 'ACTIVE' }, data: { status: 'EXPIRED', settledMicros: 0n, settledAt: now } });
        return { settled: false };
      }
      return settleInTx(tx, {
        generationId: r.generationId,
        accountId: r.accountId,
        costMicros: 0n,
        closeAs: 'EXPIRED',
        usage: {
          apiKeyId: r.apiKeyId, userId: r.userId, authTokenId: r.authTokenId, model: r.model || 'unknown', provider: r.provider || 'unknown', promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0,
          reasoningTokens: 0, latencyMs: now.getTime() - r.createdAt.getTime(), status: 'ERROR', streamed: false, errorCode: 'interrupted',
          errorMessage: 'The server stopped before this generation finished; nothing was charged.',
        },
      });
    });
    if (result.settled) n++;
  }
  return n;
}

export function startReservationSweeper(intervalMs = 60_000): () => void {
  const run = () => sweepExpiredReservations().catch((err) => console.error('reservation sweeper:', (err as Error).message));
  void run();
  const t = setInterval(run, intervalMs);
  t.unref();
  return () => clearInterval(t);
}
