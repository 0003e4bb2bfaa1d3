// The chat path's rows (Reservation, LedgerEntry, UsageRecord) carry no foreign keys to Account, ApiKey, User
// or AuthToken: a foreign-key check is a query and a FOR KEY SHARE lock on the parent row per inserted row, on
// every admission and every settled generation (migration 20261128103031_hot_path_references). What those
// constraints did when a parent was deleted, triggers on the parent now do: these tests delete parents and
// look at the rows that named them.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestUser, insertUsage } from '@/test/factories';
import { postLedgerEntry } from './post-ledger-entry';
import { reserveCredits } from './reserve';
import { settleGeneration } from './settle-generation';

describeEachDatabase('hot-path rows and their parents', () => {
  it('lock no parent row when written: no foreign key from the chat path rows', async () => {
    const prisma = await db();
    const rows = await prisma.$queryRawUnsafe<{ child: string; parent: string }[]>(
      `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint
       WHERE contype = 'f' AND conrelid::regclass::text IN ('"Reservation"', '"LedgerEntry"', '"UsageRecord"') ORDER BY 1, 2`,
    );
    // The ledger still names the payment or promotion grant an entry came from (not written on the chat path).
    expect(rows).toEqual([
      { child: '"LedgerEntry"', parent: '"Payment"' },
      { child: '"LedgerEntry"', parent: '"PromotionGrant"' },
    ]);
  });

  it('a deleted key, auth token or user is unlinked from reservations and usage records', async () => {
    const prisma = await db();
    const u = await createTestUser(5);
    const accountId = u.user.personal_account_id;
    const other = await createTestKey(u.user.id, accountId);
    const token = await prisma.authToken.create({ data: { userId: u.user.id, tokenHash: `hash-${randomUUID()}`, hint: 'x' } });
    const generationId = `gen-${randomUUID()}`;
    await reserveCredits({ accountId, generationId, amountMicros: 1_000n, apiKey: { id: u.apiKeyId }, userId: u.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
    const [viaKey, viaOther] = await insertUsage([
      { accountId, userId: u.user.id, apiKeyId: u.apiKeyId },
      { accountId, userId: u.user.id, apiKeyId: other.id },
    ]);
    await prisma.usageRecord.update({ where: { id: viaOther }, data: { authTokenId: token.id } });

    await prisma.apiKey.delete({ where: { id: u.apiKeyId } });
    expect((await prisma.reservation.findUniqueOrThrow({ where: { generationId } })).apiKeyId).toBeNull();
    expect((await prisma.usageRecord.findUniqueOrThrow({ where: { id: viaKey } })).apiKeyId).toBeNull();
    expect((await prisma.usageRecord.findUniqueOrThrow({ where: { id: viaOther } })).apiKeyId).toBe(other.id);

    await prisma.authToken.delete({ where: { id: token.id } });
    expect((await prisma.usageRecord.findUniqueOrThrow({ where: { id: viaOther } })).authTokenId).toBeNull();

    // A user's deletion deletes their keys (cascade) and unlinks the user; the account's history stays.
    await prisma.user.delete({ where: { id: u.user.id } });
    const left = await prisma.usageRecord.findMany({ where: { id: { in: [viaKey, viaOther] } }, select: { userId: true, apiKeyId: true } });
    expect(left).toEqual([
      { userId: null, apiKeyId: null },
      { userId: null, apiKeyId: null },
    ]);
  });

  it('settling one generation at a time (settleInTx) does not name a key or token deleted meanwhile', async () => {
    const prisma = await db();
    const u = await createTestUser(5);
    const accountId = u.user.personal_account_id;
    const generationId = `gen-${randomUUID()}`;
    await reserveCredits({ accountId, generationId, amountMicros: 10_000n, apiKey: { id: u.apiKeyId }, userId: u.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
    await prisma.apiKey.delete({ where: { id: u.apiKeyId } });
    const usage = { userId: u.user.id, apiKeyId: u.apiKeyId, authTokenId: 'no-such-token', model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 5, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 10, status: 'SUCCESS' as const, streamed: false };
    expect((await settleGeneration({ generationId, accountId, costMicros: 1_000n, usage })).settled).toBe(true);
    expect(await prisma.usageRecord.findUniqueOrThrow({ where: { id: generationId }, select: { userId: true, apiKeyId: true, authTokenId: true, costMicros: true } })).toEqual({
      userId: u.user.id,
      apiKeyId: null,
      authTokenId: null,
      costMicros: 1_000n,
    });
  });

  it("a deleted account's reservations, ledger entries and usage records go with it", async () => {
    const prisma = await db();
    const keep = await createTestUser(1);
    const doomed = await prisma.account.create({ data: { kind: 'ORGANIZATION' } });
    await prisma.$transaction((tx) => postLedgerEntry(tx, { accountId: doomed.id, kind: 'ADJUSTMENT', paidMicros: 5_000_000n, idempotencyKey: `adjustment:${randomUUID()}` }));
    const generationId = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: doomed.id, generationId, amountMicros: 1_000n, model: 'openai/gpt-4o-mini', provider: 'openai' });
    await insertUsage([{ accountId: doomed.id }, { accountId: keep.user.personal_account_id }]);
    const count = async (accountId: string) =>
      Promise.all([prisma.reservation.count({ where: { accountId } }), prisma.ledgerEntry.count({ where: { accountId } }), prisma.usageRecord.count({ where: { accountId } })]);
    expect(await count(doomed.id)).toEqual([1, 1, 1]);
    const kept = await count(keep.user.personal_account_id);

    await prisma.account.delete({ where: { id: doomed.id } });
    expect(await count(doomed.id)).toEqual([0, 0, 0]);
    expect(await count(keep.user.personal_account_id)).toEqual(kept);
  });
});
