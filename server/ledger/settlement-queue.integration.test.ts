// The batched settlement writer loses nothing: a generation whose user was deleted mid-flight, an item
// that keeps failing, and a database that is down as a whole are all retried until written, without
// holding the other settlements back and without an unhandled rejection (which would kill the process).
import { randomUUID } from 'node:crypto';
import { afterEach, expect, it, vi } from 'vitest';
import { database, db, setDatabase, type Database } from '@/server/db';
import { reserveCredits } from '@/server/ledger/reserve';
import type { SettleInput } from '@/server/ledger/settle-generation';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization, createTestUser } from '@/test/factories';
import { SettlementQueue } from './settlement-queue';

async function reserved(accountId: string, extra: { userId?: string; apiKeyId?: string; model?: string } = {}): Promise<SettleInput> {
  const generationId = `gen-${randomUUID()}`;
  await reserveCredits({ accountId, generationId, amountMicros: 10_000n, apiKey: extra.apiKeyId ? { id: extra.apiKeyId } : undefined, userId: extra.userId });
  return {
    generationId,
    accountId,
    costMicros: 1_000n,
    usage: { userId: extra.userId, apiKeyId: extra.apiKeyId, model: extra.model ?? 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 5, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 10, status: 'SUCCESS', streamed: true },
  };
}

const recorded = async (ids: string[]) => (await db()).usageRecord.count({ where: { id: { in: ids } } });

describeEachDatabase('settlement queue', () => {
  const queue = new SettlementQueue();
  afterEach(() => vi.restoreAllMocks());

  it('a generation whose user was deleted mid-flight is written without the dangling references; its batch is not lost', async () => {
    const [owner, member] = await Promise.all([createTestUser(), createTestUser()]);
    const org = await createTestOrganization({ usd: 1, members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }] });
    const key = await createTestKey(member.user.id, org.id);
    const orphan = await reserved(org.id, { userId: member.user.id, apiKeyId: key.id });
    const others = await Promise.all([reserved(org.id, { userId: owner.user.id }), reserved(org.id, { userId: owner.user.id })]);
    await (await db()).user.delete({ where: { id: member.user.id } });
    const writes = [orphan, ...others].map((s) => queue.enqueue(s));
    await queue.flush();
    await Promise.all(writes);
    expect(queue.pending()).toBe(0);
    expect(await recorded(others.map((s) => s.generationId))).toBe(2);
    expect(await (await db()).usageRecord.findUniqueOrThrow({ where: { id: orphan.generationId } })).toMatchObject({ userId: null, apiKeyId: null, costMicros: 1_000n, accountId: org.id });
  });

  it('a flush writes what was due when it started; what is queued meanwhile waits for the next flush, which a caller of flush() gets', async () => {
    // A queue whose interval does not end during the test: only the flushes the test asks for run (with the
    // default 100 ms, a slow first flush let the interval's own flush write `later` before it was looked at).
    const queue = new SettlementQueue(60_000);
    const u = await createTestUser(1);
    const first = await Promise.all([reserved(u.user.personal_account_id), reserved(u.user.personal_account_id)]);
    const later = await reserved(u.user.personal_account_id);
    const firstWritten = Promise.all(first.map((s) => queue.enqueue(s)));
    const running = queue.flush();
    // Queued while that flush's statement is in the database: a busy server's settlements must go in one
    // statement per interval, not in a statement after each statement.
    const laterWritten = queue.enqueue(later);
    await running;
    await firstWritten;
    expect(await recorded(first.map((s) => s.generationId))).toBe(2);
    expect(await recorded([later.generationId])).toBe(0);
    expect(queue.pending()).toBe(1);
    // A caller who asks for a flush while one runs gets one that starts after it, with its settlement in it.
    const again = await Promise.all([reserved(u.user.personal_account_id)]);
    const againWritten = queue.enqueue(again[0]!);
    const busy = queue.flush();
    await Promise.all([queue.flush(), laterWritten, againWritten, busy]);
    expect(await recorded([later.generationId, again[0]!.generationId])).toBe(2);
    expect(queue.pending()).toBe(0);
    await queue.drain(); // clears the interval's timer
  });

  it('an item that keeps failing is retried with backoff, never dropped, and does not hold later settlements back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const u = await createTestUser(1);
    const prisma = await db();
    // Make one generation's usage record unwritable for a while.
    await prisma.$executeRawUnsafe(`ALTER TABLE "UsageRecord" ADD CONSTRAINT flush_test_poison CHECK ("model" <> 'poison')`);
    try {
      const poison = await reserved(u.user.personal_account_id, { model: 'poison' });
      const first = await reserved(u.user.personal_account_id);
      void queue.enqueue(poison);
      const firstWritten = queue.enqueue(first);
      await queue.flush();
      await firstWritten;
      expect(await recorded([first.generationId])).toBe(1);
      expect(queue.pending()).toBe(1);
      // While the poison item waits out its backoff, new settlements keep flowing.
      const later = await Promise.all([reserved(u.user.personal_account_id), reserved(u.user.personal_account_id)]);
      const laterWritten = later.map((s) => queue.enqueue(s));
      await queue.flush();
      await Promise.all(laterWritten);
      expect(await recorded(later.map((s) => s.generationId))).toBe(2);
      expect(await recorded([poison.generationId])).toBe(0);
      expect(queue.pending()).toBe(1);
    } finally {
      await prisma.$executeRawUnsafe(`ALTER TABLE "UsageRecord" DROP CONSTRAINT flush_test_poison`);
    }
    // Once writable it goes through on a later retry (here: the shutdown drain, which ignores backoff).
    await queue.drain();
    expect(queue.pending()).toBe(0);
    expect(await prisma.usageRecord.count({ where: { model: 'poison', accountId: u.user.personal_account_id } })).toBe(1);
    expect(await prisma.ledgerEntry.count({ where: { accountId: u.user.personal_account_id, kind: 'USAGE' } })).toBe(4);
  });

  it('a database that is down as a whole: no unhandled rejection, the queue is kept and written when it is back', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const u = await createTestUser(1);
    const item = await reserved(u.user.personal_account_id);
    const real = await database();
    const down = { ...real, kind: real.kind, get prisma(): never { throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } } as unknown as Database;
    setDatabase(down);
    let written = false;
    void queue.enqueue(item).then(() => (written = true));
    try {
      await queue.flush(); // resolves: the failure is handled inside
      await new Promise((r) => setTimeout(r, 100));
      expect(written).toBe(false);
      expect(queue.pending()).toBe(1);
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/usage flush failed/), expect.stringMatching(/ECONNREFUSED/));
    } finally {
      setDatabase(real);
    }
    await expect.poll(() => written, { timeout: 5_000 }).toBe(true); // the flusher retried on its own
    expect(await recorded([item.generationId])).toBe(1);
  });
});
