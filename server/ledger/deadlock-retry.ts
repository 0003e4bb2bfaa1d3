// PostgreSQL may abort a transaction as a deadlock victim (40P01) when two of them lock the same rows in different
// orders — e.g. one waits for an account row that a concurrent settlement holds and re-locks. Aborted, it changed
// nothing, so it is run again (up to 3 times) instead of failing its caller. Found by the ledger property test.

/** A deadlock victim: 40P01 from node-postgres, or Prisma's wrapping of it (P2034, or P2010 naming the conflict). */
export function isDeadlockVictim(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '40P01' || e.code === 'P2034') return true;
  if (e.meta?.driverAdapterError?.cause?.kind === 'TransactionWriteConflict') return true;
  return e.code === 'P2010' && typeof e.message === 'string' && /\b40P01\b|deadlock detected/.test(e.message);
}

export async function withDeadlockRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!isDeadlockVictim(err) || attempt >= attempts) throw err;
    }
  }
}
