// The usage flusher's one-statement batch settlement (settle-batch.ts) against settleInTx, the reference:
// the same batch settled both ways on twin accounts must leave the same balances, key counters, ledger
// entries (balance after each) and usage records; what the batch cannot take it must leave untouched; a
// failing batch writes nothing; and racing admissions keep the account's invariants on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestUser } from '@/test/factories';
import { getBalanceOrThrow } from './balance';
import { postLedgerEntry } from './post-ledger-entry';
import { reserveCredits } from './reserve';
import { settleBatch } from './settle-batch';
import { settleGeneration, type SettleInput, type UsageFields } from './settle-generation';

const usage = (extra: Partial<UsageFields> = {}): UsageFields => ({
  model: 'openai/gpt-4o-mini', provider: 'openai', upstreamModel: 'gpt-4o-mini', upstreamId: 'chatcmpl-1', promptTokens: 120, completionTokens: 30,
  cachedTokens: 4, cacheWriteTokens: 1, reasoningTokens: 2, cacheSavingsMicros: 7n, latencyMs: 321, ttftMs: 45, finishReason: 'stop',
  status: 'SUCCESS', streamed: true, httpReferer: 'https://example.com', xTitle: 'x', taskId: 't', requestId: 'req_1', ...extra,
});

/** A funded account with an uncapped key and a capped one; `n` reservations spread over both keys. */
async function world(amounts: bigint[]) {
  const u = await createTestUser(10);
  const capped = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 5 });
  const keys = [{ id: u.apiKeyId, limitReset: 'NEVER' as const }, { id: capped.id, limitReset: 'NEVER' as const }];
  const gens: string[] = [];
  for (const [i, amountMicros] of amounts.entries()) {
    const generationId = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.user.personal_account_id, generationId, amountMicros, apiKey: keys[i % 2], userId: u.user.id, model: 'openai/gpt-4o-mini', provider: 'openai' });
    gens.push(generationId);
  }
  return { accountId: u.user.personal_account_id, userId: u.user.id, keys, gens };
}

async function state(w: Awaited<ReturnType<typeof world>>) {
  const prisma = await db();
  const b = await getBalanceOrThrow(w.accountId);
  const keys = await prisma.apiKey.findMany({ where: { id: { in: w.keys.map((k) => k.id) } }, select: { id: true, windowSpentMicros: true, totalSpentMicros: true } });
  const entries = await prisma.ledgerEntry.findMany({ where: { accountId: w.accountId, kind: 'USAGE' }, orderBy: { balanceAfterMicros: 'desc' }, select: { generationId: true, amountMicros: true, paidMicros: true, promoMicros: true, balanceAfterMicros: true, idempotencyKey: true } });
  const records = await prisma.usageRecord.findMany({ where: { accountId: w.accountId }, omit: { createdAt: true } });
  const reservations = await prisma.reservation.findMany({ where: { accountId: w.accountId }, select: { generationId: true, status: true, settledMicros: true } });
  const pos = (g: string | null) => w.gens.indexOf(g ?? '');
  return {
    balance: { paid: b.paidMicros, promo: b.promoMicros, reserved: b.reservedMicros },
    keys: w.keys.map((k) => keys.find((x) => x.id === k.id)).map((k) => ({ window: k!.windowSpentMicros, total: k!.totalSpentMicros })),
    entries: entries.map((e) => ({ ...e, generationId: pos(e.generationId), idempotencyKey: e.idempotencyKey.replace(e.generationId!, '<gen>') })),
    records: records.map((r) => ({ ...r, id: pos(r.id), accountId: '<a>', userId: '<u>', apiKeyId: w.keys.findIndex((k) => k.id === r.apiKeyId) })).sort((a, b) => a.id - b.id),
    reservations: reservations.map((r) => ({ ...r, generationId: pos(r.generationId) })).sort((a, b) => a.generationId - b.generationId),
  };
}

const inputs = (w: Awaited<ReturnType<typeof world>>, costs: bigint[]): SettleInput[] =>
  w.gens.map((generationId, i) => ({ generationId, accountId: w.accountId, costMicros: costs[i], usage: usage({ userId: w.userId, apiKeyId: w.keys[i % 2].id, completionTokens: 10 + i, unbilledMicros: BigInt(i), providerCostMicros: i % 2 ? null : BigInt(95_000 + i) }) }));

describeEachDatabase('batch settlement', (kind) => {
  it('has the effects of settleInTx applied item by item', async () => {
    const amounts = [300_000n, 200_000n, 150_000n, 400_000n, 100_000n];
    const costs = [120_000n, 0n, 180_000n, 500_000n, 1n]; // nothing, less, more than the hold
    const [a, b] = [await world(amounts), await world(amounts)];
    const settled = await settleBatch(inputs(a, costs));
    expect([...settled].sort()).toEqual([...a.gens].sort());
    for (const input of inputs(b, costs)) expect((await settleGeneration(input)).settled).toBe(true);
    const [sa, sb] = [await state(a), await state(b)];
    expect(sa).toEqual(sb);
    expect(sa.balance).toEqual({ paid: 10_000_000n - 800_001n, promo: 0n, reserved: 0n });
    expect(sa.entries.map((e) => e.balanceAfterMicros)).toEqual([9_880_000n, 9_700_000n, 9_200_000n, 9_199_999n]);
    // The provider-reported cost (or its absence) and the operator's loss, as given, on both paths.
    expect(sa.records.map((r) => [r.providerCostMicros, r.unbilledMicros])).toEqual([[95_000n, 0n], [null, 1n], [95_002n, 2n], [null, 3n], [95_004n, 4n]]);
    // Settled once: the same batch again settles nothing and changes nothing.
    expect((await settleBatch(inputs(a, costs))).size).toBe(0);
    expect(await state(a)).toEqual(sa);
  });

  it('leaves promotional credit and closed reservations to settleInTx', async () => {
    const plain = await world([100_000n, 100_000n]);
    const promo = await world([100_000n, 100_000n]);
    const prisma = await db();
    await prisma.$transaction(async (tx) => {
      const g = await tx.promotionGrant.create({ data: { accountId: promo.accountId, amountMicros: 50_000n, remainingMicros: 50_000n } });
      await postLedgerEntry(tx, { accountId: promo.accountId, kind: 'PROMOTION', paidMicros: 0n, promoMicros: 50_000n, idempotencyKey: `promotion:${g.id}`, promotionGrantId: g.id });
    });
    await settleGeneration(inputs(plain, [10n, 10n])[1]); // already settled
    const before = await state(promo);
    const [p0, p1] = inputs(plain, [70_000n, 70_000n]);
    const batch: SettleInput[] = [
      p1, // already settled
      ...inputs(promo, [70_000n, 70_000n]), // promotional credit to draw from
      { ...p0, generationId: `gen-${randomUUID()}` }, // no such reservation
    ];
    const settled = await settleBatch(batch);
    expect(settled.size).toBe(0);
    expect(await state(promo)).toEqual(before);
    // A zero-cost item draws nothing, so promotional credit does not stop it.
    expect([...(await settleBatch(inputs(promo, [0n, 0n])))].sort()).toEqual([...promo.gens].sort());
    expect((await state(promo)).balance).toEqual({ paid: 10_000_000n, promo: 50_000n, reserved: 0n });
  });

  it('writes nothing when the statement fails', async () => {
    const w = await world([100_000n, 200_000n]);
    const before = await state(w);
    const bad = inputs(w, [10n, 20n]);
    bad[1] = { ...bad[1], usage: usage({ userId: w.userId, status: 'NO-SUCH-STATUS' as UsageFields['status'] }) }; // not a UsageStatus
    await expect(settleBatch(bad)).rejects.toThrow();
    expect(await state(w)).toEqual(before);
  });

  it('does not name a user, key or token deleted while the generation ran', async () => {
    const w = await world([100_000n, 100_000n]);
    const prisma = await db();
    await prisma.apiKey.delete({ where: { id: w.keys[1].id } }); // the capped key, used by the second generation
    const items = inputs(w, [10n, 20n]);
    items[0] = { ...items[0], usage: { ...items[0].usage, authTokenId: 'no-such-token' } };
    expect([...(await settleBatch(items))].sort()).toEqual([...w.gens].sort());
    const records = await prisma.usageRecord.findMany({ where: { id: { in: w.gens } }, select: { id: true, userId: true, apiKeyId: true, authTokenId: true } });
    expect(records.sort((a, b) => w.gens.indexOf(a.id) - w.gens.indexOf(b.id))).toEqual([
      { id: w.gens[0], userId: w.userId, apiKeyId: w.keys[0].id, authTokenId: null },
      { id: w.gens[1], userId: w.userId, apiKeyId: null, authTokenId: null },
    ]);
  });

  // A race needs real concurrency: PGlite runs one transaction at a time, so this case exists on PostgreSQL only.
  if (kind === 'postgres') it('racing admissions and batch settlements keep reserved and paid equal to their sources', async () => {
    const w = await world([]);
    const gens: string[] = [];
    const admit = async () => {
      const generationId = `gen-${randomUUID()}`;
      await reserveCredits({ accountId: w.accountId, generationId, amountMicros: 50_000n, apiKey: w.keys[1], userId: w.userId });
      gens.push(generationId);
    };
    for (let round = 0; round < 5; round++) {
      const ready = gens.splice(0);
      const batch = ready.map((generationId) => ({ generationId, accountId: w.accountId, costMicros: 20_000n, usage: usage({ userId: w.userId, apiKeyId: w.keys[1].id }) }));
      await Promise.all([...Array.from({ length: 20 }, admit), settleBatch(batch.slice(0, 10)), settleBatch(batch.slice(10))]);
    }
    const prisma = await db();
    const b = await getBalanceOrThrow(w.accountId);
    const active = await prisma.reservation.aggregate({ where: { accountId: w.accountId, status: 'ACTIVE' }, _sum: { amountMicros: true }, _count: true });
    const ledger = await prisma.ledgerEntry.aggregate({ where: { accountId: w.accountId }, _sum: { amountMicros: true } });
    const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: w.keys[1].id } });
    expect(active._count).toBe(20);
    expect(b.reservedMicros).toBe(active._sum.amountMicros);
    expect(b.paidMicros + b.promoMicros).toBe(ledger._sum.amountMicros);
    expect(b.paidMicros).toBe(10_000_000n - 80n * 20_000n);
    expect(key.windowSpentMicros).toBe(20n * 50_000n + 80n * 20_000n);
    expect(key.totalSpentMicros).toBe(80n * 20_000n);
    expect(await prisma.usageRecord.count({ where: { accountId: w.accountId } })).toBe(80);
  });
});
