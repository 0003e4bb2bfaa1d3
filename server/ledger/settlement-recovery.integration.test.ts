// Settlement when things went wrong: a generation given up by the sweeper that turns out to have finished
// (late settlement), a usage record that already exists when the sweeper comes, and a user deleted while
// their generation was running.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization, createTestUser, insertUsage } from '@/test/factories';
import { getBalanceOrThrow } from './balance';
import { reserveCredits } from './reserve';
import { settleBatch } from './settle-batch';
import { settleGeneration, type UsageFields } from './settle-generation';
import { sweepExpiredReservations } from './sweep-reservations';

const usage = (extra: Partial<UsageFields> = {}): UsageFields => ({ model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 120, completionTokens: 30, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 900_000, status: 'SUCCESS', streamed: true, finishReason: 'stop', ...extra });
const afterTtl = () => new Date(Date.now() + 16 * 60_000);

describeEachDatabase('settlement recovery', (kind) => {
  it('a settlement arriving after the sweeper expired the reservation is still charged and recorded, once', async () => {
    const u = await createTestUser(1);
    const key = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 1 });
    const account = u.user.personal_account_id;
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: account, generationId: gen, amountMicros: 200_000n, apiKey: { id: key.id }, userId: u.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
    expect(await sweepExpiredReservations(afterTtl())).toBe(1); // a 16-minute stream looked like a dead process
    const prisma = await db();
    expect(await prisma.usageRecord.findUniqueOrThrow({ where: { id: gen } })).toMatchObject({ errorCode: 'interrupted', costMicros: 0n });

    const late = await settleGeneration({ generationId: gen, accountId: account, costMicros: 50_000n, usage: usage({ userId: u.user.id, apiKeyId: key.id }) });
    expect(late).toEqual({ settled: true, costMicros: 50_000n });
    expect(await settleGeneration({ generationId: gen, accountId: account, costMicros: 50_000n, usage: usage() })).toEqual({ settled: false, costMicros: 0n });

    const records = await prisma.usageRecord.findMany({ where: { id: gen } });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'SUCCESS', errorCode: null, costMicros: 50_000n, promptTokens: 120, apiKeyId: key.id });
    expect(await prisma.ledgerEntry.findMany({ where: { generationId: gen }, select: { amountMicros: true } })).toEqual([{ amountMicros: -50_000n }]);
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: gen } })).toMatchObject({ status: 'SETTLED', settledMicros: 50_000n });
    expect(await getBalanceOrThrow(account)).toMatchObject({ totalMicros: 950_000n, reservedMicros: 0n });
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).toMatchObject({ windowSpentMicros: 50_000n, totalSpentMicros: 50_000n });
  });

  it('a settlement whose reservation the database lost (an admission committed asynchronously, then a crash) is charged and recorded, once', async () => {
    const u = await createTestUser(1);
    const key = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 1 });
    const account = u.user.personal_account_id;
    const gen = `gen-${randomUUID()}`;
    // What a database crash before the WAL flush leaves of an admission: nothing (the reservation row, the
    // account's hold and the key's window went together). The generation was served all the same.
    const input = { generationId: gen, accountId: account, costMicros: 70_000n, usage: usage({ userId: u.user.id, apiKeyId: key.id }) };
    expect(await settleBatch([input])).toEqual(new Set()); // the batch statement takes ACTIVE reservations only
    expect(await settleGeneration(input)).toEqual({ settled: true, costMicros: 70_000n });
    expect(await settleGeneration(input)).toEqual({ settled: false, costMicros: 0n });

    const prisma = await db();
    expect(await prisma.usageRecord.findMany({ where: { id: gen } })).toMatchObject([{ status: 'SUCCESS', costMicros: 70_000n, apiKeyId: key.id, userId: u.user.id }]);
    expect(await prisma.ledgerEntry.findMany({ where: { generationId: gen }, select: { amountMicros: true } })).toEqual([{ amountMicros: -70_000n }]);
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: gen } })).toMatchObject({ status: 'SETTLED', settledMicros: 70_000n, apiKeyId: key.id });
    expect(await getBalanceOrThrow(account)).toMatchObject({ totalMicros: 930_000n, reservedMicros: 0n });
    expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).toMatchObject({ windowSpentMicros: 70_000n, totalSpentMicros: 70_000n });
  });

  it('the sweeper releases the hold (account and key) when a usage record already exists', async () => {
    const u = await createTestUser(1);
    const key = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 1 });
    const account = u.user.personal_account_id;
    const [gen] = await insertUsage([{ accountId: account, userId: u.user.id, costMicros: 0n }]);
    await reserveCredits({ accountId: account, generationId: gen, amountMicros: 300_000n, apiKey: { id: key.id } });
    expect(await sweepExpiredReservations(afterTtl())).toBe(0); // nothing newly recorded…
    const prisma = await db();
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: gen } })).toMatchObject({ status: 'EXPIRED' });
    expect((await getBalanceOrThrow(account)).reservedMicros).toBe(0n); // …but the hold is gone
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).windowSpentMicros).toBe(0n);
    expect(await prisma.usageRecord.count({ where: { id: gen } })).toBe(1);
  });

  it('a user deleted mid-generation: the sweeper still records the generation, without the dangling references', async () => {
    const [owner, member] = await Promise.all([createTestUser(), createTestUser()]);
    const org = await createTestOrganization({ usd: 1, members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }] });
    const key = await createTestKey(member.user.id, org.id);
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: org.id, generationId: gen, amountMicros: 100_000n, apiKey: { id: key.id }, userId: member.user.id, model: 'm', provider: 'p' });
    const prisma = await db();
    await prisma.user.delete({ where: { id: member.user.id } }); // cascades to the member's keys
    expect(await sweepExpiredReservations(afterTtl())).toBe(1);
    expect(await prisma.usageRecord.findUniqueOrThrow({ where: { id: gen } })).toMatchObject({ userId: null, apiKeyId: null, errorCode: 'interrupted' });
    expect((await getBalanceOrThrow(org.id)).reservedMicros).toBe(0n);
  });

  // Lock order, Account then ApiKey, as reservations take them: a late settlement that took the key first
  // deadlocked against a keyed reservation holding the account (found by the ledger property test).
  if (kind === 'postgres') it('a late settlement waits for the account before it touches the key (no deadlock with a reservation)', async () => {
    const u = await createTestUser(1);
    const key = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 1 });
    const account = u.user.personal_account_id;
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: account, generationId: gen, amountMicros: 200_000n, apiKey: { id: key.id }, userId: u.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
    expect(await sweepExpiredReservations(afterTtl())).toBe(1);
    const prisma = await db();

    // A reservation's position: the account row locked, the key next.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${account} FOR NO KEY UPDATE`;
      locked();
      await gate;
    }, { timeout: 30_000, maxWait: 5_000 });
    await isLocked;

    const late = settleGeneration({ generationId: gen, accountId: account, costMicros: 50_000n, usage: usage({ userId: u.user.id, apiKeyId: key.id }) });
    const until = Date.now() + 5_000;
    for (;;) {
      const [{ waiting }] = await prisma.$queryRaw<{ waiting: bigint }[]>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      if (waiting >= 1n) break;
      if (Date.now() > until) throw new Error('the late settlement never waited on the account lock');
      await sleep(10);
    }
    // While the settlement waits for the account, the key must still be free for the reservation to take.
    const keyFree = await prisma.$transaction(async (tx) => {
      try {
        await tx.$queryRaw`SELECT id FROM "ApiKey" WHERE id = ${key.id} FOR NO KEY UPDATE NOWAIT`;
        return true;
      } catch {
        return false;
      }
    });
    release();
    await holder;
    expect(keyFree).toBe(true);
    expect(await late).toEqual({ settled: true, costMicros: 50_000n });
  });
});
