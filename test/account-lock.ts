// Waiting on the database in gateway tests: a row lock held by the test, and the admissions queued behind it
// (PostgreSQL only: embedded PGlite runs one statement at a time).
import { db } from '@/server/db';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await sleep(10);
  }
  return cond();
}

/** Resolves once `n` statements of the test database wait on a lock (admissions behind holdAccountLock). */
export async function admissionsBlocked(n: number): Promise<void> {
  const prisma = await db();
  const until = Date.now() + 5_000;
  for (;;) {
    const [{ waiting }] = await prisma.$queryRaw<{ waiting: bigint }[]>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (Number(waiting) >= n) return;
    if (Date.now() > until) throw new Error(`expected ${n} admission(s) waiting on the account lock, saw ${waiting}`);
    await sleep(10);
  }
}

/** Locks the account row in a transaction of its own until the returned function is called. */
export async function holdAccountLock(accountId: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = (await db()).$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${accountId} FOR UPDATE`;
      locked();
      await gate;
    },
    { timeout: 30_000, maxWait: 5_000 },
  );
  await isLocked;
  return async () => {
    release();
    await done;
  };
}

