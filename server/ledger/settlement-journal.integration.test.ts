// The settlement journal and reservation leases against a real database: a dead process's journal is
// replayed once (charged exactly once, also when part of it was already settled), a live process's lines are
// compacted away as they commit, and only the reservations a process still holds are renewed.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { describeEachDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';
import { getBalanceOrThrow } from './balance';
import { ReservationLeases } from './reservation-leases';
import { reserveCredits } from './reserve';
import { settleGeneration, type SettleInput } from './settle-generation';
import { SettlementJournal, replaySettlementJournals } from './settlement-journal';
import { sweepExpiredReservations } from './sweep-reservations';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'sb-journal-'));
  dirs.push(d);
  return d;
};

const settlement = (accountId: string, generationId: string, costMicros: bigint): SettleInput => ({
  generationId,
  accountId,
  costMicros,
  usage: { model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 10, completionTokens: 20, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, cacheSavingsMicros: 0n, unbilledMicros: 7n, providerCostMicros: 950_001n, latencyMs: 5, status: 'SUCCESS', streamed: true, finishReason: 'stop' },
});

/** A journal file as a process that has died left it (a pid no process has). */
function leftByDeadProcess(dir: string, journal: SettlementJournal, inputs: SettleInput[]): string {
  for (const s of inputs) journal.append(s);
  const [file] = readdirSync(dir);
  const dead = path.join(dir, `2147483640-${file.split('-')[1]}`);
  renameSync(path.join(dir, file), dead);
  return dead;
}

describeEachDatabase('settlement journal', () => {
  it('a dead process’s journal is replayed at start: each generation charged its cost once, the file removed', async () => {
    const u = await createTestUser(1);
    const account = u.user.personal_account_id;
    const gens = [0, 1, 2].map(() => `gen-${randomUUID()}`);
    const reserve = (g: string) => reserveCredits({ accountId: account, generationId: g, amountMicros: 100_000n, model: 'openai/gpt-4o-mini', provider: 'openai' });
    // The first was settled before the crash, the second expired by a sweeper meanwhile, the third is ACTIVE.
    await reserve(gens[0]);
    await reserve(gens[1]);
    await settleGeneration(settlement(account, gens[0], 1_000n));
    expect(await sweepExpiredReservations(new Date(Date.now() + 16 * 60_000))).toBe(1);
    await reserve(gens[2]);
    const dir = tempDir();
    const file = leftByDeadProcess(dir, new SettlementJournal(dir), [settlement(account, gens[0], 1_000n), settlement(account, gens[2], 3_000n), settlement(account, gens[1], 2_000n)]);

    const settled: SettleInput[][] = [];
    const replay = () =>
      replaySettlementJournals(dir, async (inputs) => {
        settled.push(inputs);
        for (const s of inputs) await settleGeneration(s);
      });
    expect(await replay()).toBe(3);
    expect(existsSync(file)).toBe(false);
    expect(await replay()).toBe(0);
    expect(settled[0].map((s) => s.costMicros)).toEqual([1_000n, 3_000n, 2_000n]); // bigints survive the file

    const prisma = await db();
    expect(await getBalanceOrThrow(account)).toMatchObject({ totalMicros: 1_000_000n - 6_000n, reservedMicros: 0n });
    for (const [i, g] of gens.entries()) {
      expect(await prisma.ledgerEntry.findMany({ where: { generationId: g }, select: { amountMicros: true } })).toEqual([{ amountMicros: -BigInt((i + 1) * 1_000) }]);
      expect(await prisma.usageRecord.findUniqueOrThrow({ where: { id: g } })).toMatchObject({ costMicros: BigInt((i + 1) * 1_000), status: 'SUCCESS', unbilledMicros: 7n, providerCostMicros: 950_001n });
    }
  });

  it('a live journal keeps only what is not yet committed: emptied in place once everything settled; its own files are not replayed', async () => {
    const dir = tempDir();
    const journal = new SettlementJournal(dir);
    const a = journal.append(settlement('acct', 'gen-a', 1n))!;
    const b = journal.append(settlement('acct', 'gen-b', 2n))!;
    const [file] = readdirSync(dir);
    expect(statSync(path.join(dir, file)).size).toBeGreaterThan(0);
    expect(await replaySettlementJournals(dir, () => Promise.reject(new Error('must not replay a live journal')), journal)).toBe(0);
    journal.settled(a);
    expect(statSync(path.join(dir, file)).size).toBeGreaterThan(0); // gen-b is still outstanding
    journal.settled(b);
    expect(statSync(path.join(dir, file)).size).toBe(0);
    journal.append(settlement('acct', 'gen-c', 3n));
    expect(statSync(path.join(dir, file)).size).toBeGreaterThan(0);
    journal.close();
    expect(readdirSync(dir)).toEqual([file]); // gen-c was never committed: the file stays for the next start
  });

  it('several workers starting together replay a dead worker’s journal once between them; a claim left by a dead replayer is taken over', async () => {
    const u = await createTestUser(1);
    const account = u.user.personal_account_id;
    const gens = [0, 1, 2].map(() => `gen-${randomUUID()}`);
    for (const g of gens) await reserveCredits({ accountId: account, generationId: g, amountMicros: 100_000n, model: 'openai/gpt-4o-mini', provider: 'openai' });
    const dir = tempDir();
    leftByDeadProcess(dir, new SettlementJournal(dir), gens.slice(0, 2).map((g) => settlement(account, g, 1_000n)));
    // A worker died while replaying another file: its claim is named after it.
    const other = tempDir();
    const claimedBase = path.basename(leftByDeadProcess(other, new SettlementJournal(other), [settlement(account, gens[2], 1_000n)]));
    renameSync(path.join(other, claimedBase), path.join(dir, `${claimedBase}.replay-2147483641-0abc`));

    const settled: string[] = [];
    const worker = () =>
      replaySettlementJournals(dir, async (inputs) => {
        for (const s of inputs) {
          settled.push(s.generationId);
          await settleGeneration(s);
        }
      });
    const counts = await Promise.all([worker(), worker(), worker()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
    expect(settled.sort()).toEqual([...gens].sort());
    expect(readdirSync(dir)).toEqual([]);
    expect(await getBalanceOrThrow(account)).toMatchObject({ totalMicros: 1_000_000n - 3_000n, reservedMicros: 0n });
  });
});

describeEachDatabase('reservation leases', () => {
  it('a held reservation is renewed and outlives its first expiry; a released one expires and is swept', async () => {
    const u = await createTestUser(1);
    const account = u.user.personal_account_id;
    const [held, released] = [`gen-${randomUUID()}`, `gen-${randomUUID()}`];
    const leases = new ReservationLeases(60_000);
    const t0 = Date.now();
    for (const g of [held, released]) {
      await reserveCredits({ accountId: account, generationId: g, amountMicros: 50_000n, ttlMs: leases.leaseMs, model: 'm', provider: 'p' });
      leases.hold(g);
    }
    leases.release(released);
    await leases.renew(new Date(t0 + 50_000)); // 50 s later: the held one now expires at t0 + 110 s
    const prisma = await db();
    const expiry = async (g: string) => (await prisma.reservation.findUniqueOrThrow({ where: { generationId: g } })).expiresAt.getTime();
    expect(await expiry(held)).toBe(t0 + 110_000);
    expect(await expiry(released)).toBeLessThanOrEqual(Date.now() + 60_000);

    expect(await sweepExpiredReservations(new Date(t0 + 100_000))).toBe(1);
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: released } })).toMatchObject({ status: 'EXPIRED' });
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: held } })).toMatchObject({ status: 'ACTIVE' });
    expect((await getBalanceOrThrow(account)).reservedMicros).toBe(50_000n);
  });
});
