import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { createUser } from '@/server/users/create-user';
import { describeEachDatabase } from '@/test/db';
import { getBalanceOrThrow, grantCredits } from './balance';
import { postLedgerEntry } from './post-ledger-entry';
import { currentWindowStart, reserveCredits } from './reserve';
import { settleGeneration, type UsageFields } from './settle-generation';
import { sweepExpiredReservations } from './sweep-reservations';

const usage: UsageFields = { model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status: 'SUCCESS', streamed: false };

async function newAccount(usd: number) {
  const user = await createUser({ email: `${randomUUID()}@example.com` });
  if (usd) await grantCredits({ accountId: user.personal_account_id, amountMicros: BigInt(usd * 1e6), idempotencyKey: `seed:${user.id}` });
  return user;
}

async function ledgerSum(accountId: string) {
  const rows = await (await db()).ledgerEntry.findMany({ where: { accountId }, select: { amountMicros: true } });
  return rows.reduce((s, r) => s + r.amountMicros, 0n);
}

describeEachDatabase('ledger', () => {
  beforeAll(() => {});

  it('posts a cause at most once (idempotency key)', async () => {
    const u = await newAccount(0);
    const a = await grantCredits({ accountId: u.personal_account_id, amountMicros: 5_000_000n, idempotencyKey: 'payment:abc' });
    const b = await grantCredits({ accountId: u.personal_account_id, amountMicros: 5_000_000n, idempotencyKey: 'payment:abc' });
    expect(a.created).toBe(true);
    expect(b.created).toBe(false);
    expect((await getBalanceOrThrow(u.personal_account_id)).totalMicros).toBe(5_000_000n);
  });

  it('concurrent reservations never exceed the balance', async () => {
    const u = await newAccount(1);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () => reserveCredits({ accountId: u.personal_account_id, generationId: `gen-${randomUUID()}`, amountMicros: 100_000n })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBe(10);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('payment_required');
    const b = await getBalanceOrThrow(u.personal_account_id);
    expect(b.reservedMicros).toBe(1_000_000n);
    expect(b.availableMicros).toBe(0n);
  });

  it('settles once: charges the actual cost, promotional credit first, and writes the usage record', async () => {
    const u = await newAccount(1);
    const prisma = await db();
    // $0.30 of promotional credit
    await prisma.$transaction(async (tx) => {
      const g = await tx.promotionGrant.create({ data: { accountId: u.personal_account_id, amountMicros: 300_000n, remainingMicros: 300_000n } });
      await postLedgerEntry(tx, { accountId: u.personal_account_id, kind: 'PROMOTION', paidMicros: 0n, promoMicros: 300_000n, idempotencyKey: `promotion:${g.id}`, promotionGrantId: g.id });
    });
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.personal_account_id, generationId: gen, amountMicros: 600_000n });
    const first = await settleGeneration({ generationId: gen, accountId: u.personal_account_id, costMicros: 500_000n, usage });
    const second = await settleGeneration({ generationId: gen, accountId: u.personal_account_id, costMicros: 500_000n, usage });
    expect(first.settled).toBe(true);
    expect(second.settled).toBe(false);
    const b = await getBalanceOrThrow(u.personal_account_id);
    expect(b.promoMicros).toBe(0n);
    expect(b.paidMicros).toBe(800_000n);
    expect(b.reservedMicros).toBe(0n);
    expect(b.totalMicros).toBe(await ledgerSum(u.personal_account_id));
    expect(await prisma.usageRecord.count({ where: { id: gen } })).toBe(1);
    const grant = await prisma.promotionGrant.findFirst({ where: { accountId: u.personal_account_id } });
    expect(grant!.remainingMicros).toBe(0n);
  });

  it('a zero-cost settlement writes usage but no ledger entry', async () => {
    const u = await newAccount(1);
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.personal_account_id, generationId: gen, amountMicros: 100_000n });
    await settleGeneration({ generationId: gen, accountId: u.personal_account_id, costMicros: 0n, usage: { ...usage, status: 'ERROR' } });
    expect(await (await db()).ledgerEntry.count({ where: { generationId: gen } })).toBe(0);
    expect((await getBalanceOrThrow(u.personal_account_id)).availableMicros).toBe(1_000_000n);
  });

  it('enforces a key credit limit at admission and resets it by window', async () => {
    const u = await newAccount(10);
    const { apiKey } = await createApiKey({ userId: u.id, input: { name: 'capped', credit_limit: 1, limit_reset: 'daily' } });
    const key = { id: apiKey.id, limitReset: 'DAILY' as const };
    await reserveCredits({ accountId: u.personal_account_id, generationId: `gen-${randomUUID()}`, amountMicros: 700_000n, apiKey: key });
    await expect(reserveCredits({ accountId: u.personal_account_id, generationId: `gen-${randomUUID()}`, amountMicros: 400_000n, apiKey: key })).rejects.toMatchObject({ code: 'payment_required', metadata: { reason: 'key_limit' } });
    const tomorrow = new Date(Date.now() + 86_400_000);
    await reserveCredits({ accountId: u.personal_account_id, generationId: `gen-${randomUUID()}`, amountMicros: 400_000n, apiKey: key, now: tomorrow });
    expect(currentWindowStart('WEEKLY', new Date('2026-11-21T10:00:00Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(currentWindowStart('MONTHLY', new Date('2026-11-21T10:00:00Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('the sweeper settles reservations of a dead process exactly once', async () => {
    const u = await newAccount(1);
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.personal_account_id, generationId: gen, amountMicros: 200_000n, ttlMs: 1, model: 'openai/gpt-4o-mini', provider: 'openai', userId: u.id });
    const later = new Date(Date.now() + 60_000);
    expect(await sweepExpiredReservations(later)).toBeGreaterThanOrEqual(1);
    await sweepExpiredReservations(later);
    const prisma = await db();
    const rec = await prisma.usageRecord.findUnique({ where: { id: gen } });
    expect(rec).toMatchObject({ status: 'ERROR', errorCode: 'interrupted', model: 'openai/gpt-4o-mini', userId: u.id });
    expect((await prisma.reservation.findUnique({ where: { generationId: gen } }))!.status).toBe('EXPIRED');
    expect((await getBalanceOrThrow(u.personal_account_id)).reservedMicros).toBe(0n);
  });
});
