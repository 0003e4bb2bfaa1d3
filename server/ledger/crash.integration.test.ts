// Crash test: the gateway runs in a separate process; while it streams a generation (the fake upstream
// stalls mid-answer) it is killed with SIGKILL, so nothing it held in memory (the settlement queue, open
// streams) survives. The test process then acts as the restarted server: the sweeper finds the ACTIVE
// reservation past its lease (no final usage reached the client, so nothing was journaled), closes it as EXPIRED with an `interrupted` usage record and no charge, and a
// second sweep changes nothing (exactly once). On PostgreSQL, and on PGlite by reopening the data
// directory after the kill (PostgreSQL's crash recovery replays the WAL the dead process left behind).
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { testDatabaseKinds } from '@/test/db';
import { openCrashDatabase, startGatewayProcess } from '@/test/crash-gateway';
import { createTestUser } from '@/test/factories';
import { fixtureChunks, startFakeUpstream } from '@/test/fake-upstream';
import { getBalanceOrThrow } from './balance';
import { sweepExpiredReservations } from './sweep-reservations';

const TTL_MS = 15 * 60_000;

/** Starts a stream, waits for the first content, then SIGKILLs the gateway mid-generation. */
async function streamThenKill(port: number, key: string, child: ChildProcess): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true, max_tokens: 1000 }),
  });
  expect(res.status).toBe(200);
  const generationId = res.headers.get('x-generation-id')!;
  expect(generationId).toMatch(/^gen-/);
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('"content":"Hello"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended before the crash');
    text += new TextDecoder().decode(value);
  }
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  await reader.read().catch(() => undefined); // the connection died with the process
  return generationId;
}

async function expectSettledExactlyOnce(generationId: string, accountId: string, fundedMicros: bigint) {
  const prisma = await db();
  expect(await prisma.reservation.findUnique({ where: { generationId } })).toMatchObject({ status: 'ACTIVE' });
  expect(await prisma.usageRecord.count({ where: { id: generationId } })).toBe(0);
  expect((await getBalanceOrThrow(accountId)).reservedMicros).toBeGreaterThan(0n);

  const restartedAt = new Date(Date.now() + TTL_MS + 1_000);
  expect(await sweepExpiredReservations(new Date())).toBe(0); // not before its TTL: it might still be running
  expect(await sweepExpiredReservations(restartedAt)).toBe(1);
  expect(await sweepExpiredReservations(restartedAt)).toBe(0);

  expect(await prisma.reservation.findUnique({ where: { generationId } })).toMatchObject({ status: 'EXPIRED', settledMicros: 0n });
  const records = await prisma.usageRecord.findMany({ where: { id: generationId } });
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ status: 'ERROR', errorCode: 'interrupted', costMicros: 0n, model: 'openai/gpt-4o-mini', accountId });
  const balance = await getBalanceOrThrow(accountId);
  expect(balance).toMatchObject({ reservedMicros: 0n, totalMicros: fundedMicros });
  expect(await prisma.ledgerEntry.count({ where: { generationId } })).toBe(0);
}

for (const kind of testDatabaseKinds()) {
  describe(`gateway killed mid-stream [${kind}]`, () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('the restarted server’s sweeper settles the orphaned reservation exactly once', { timeout: 180_000 }, async () => {
      const upstream = await startFakeUpstream(() => ({ status: 200, sse: fixtureChunks('openai', 'text'), hangAfter: 3 }));
      cleanups.push(() => upstream.close());
      const database = await openCrashDatabase(kind);
      cleanups.push(() => database.dispose());
      const u = await createTestUser(1);
      const accountId = u.user.personal_account_id;
      await database.handOver();

      const { child, port } = await startGatewayProcess(database.env, upstream);
      cleanups.push(() => void child.kill('SIGKILL'));
      const generationId = await streamThenKill(port, u.key, child);
      expect(child.signalCode).toBe('SIGKILL');

      await database.takeBack(); // PGlite: the dead process's lock is taken over, the WAL replayed
      await expectSettledExactlyOnce(generationId, accountId, 1_000_000n);
    });
  });
}
