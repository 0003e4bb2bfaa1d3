// Credit leases through real HTTP (ledger/credit-leases.ts): a busy account's requests are admitted against
// this process's lease without an account or key hold, every charge is still exact, and what the lease held
// goes back to the account when it is returned, released at shutdown, or swept after its process died.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { db } from '@/server/db';
import { grantCredits } from '@/server/ledger/balance';
import { IDLE_MS, sweepExpiredLeases } from '@/server/ledger/credit-leases';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const body = JSON.stringify({ model: 'openai/gpt-4o-mini', stream: false, messages: [{ role: 'user', content: 'hi' }] });

describeEachDatabase('credit leases', (kind) => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ creditLeases: true });
  });
  afterAll(() => h?.close());
  beforeEach(async () => {
    await h.renewRuntime({ creditLeases: true });
    h.respond = replay('openai', 'text');
  });

  const post = (key: string) => fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });

  /** Sends requests one after another until one is drawn from a lease (the first ones make the account busy). */
  async function untilDrawn(key: string, accountId: string, max = 40): Promise<number> {
    const prisma = await db();
    for (let i = 1; i <= max; i++) {
      const res = await post(key);
      expect(res.status).toBe(200);
      await res.json();
      const drawn = await prisma.reservation.count({ where: { accountId, leaseId: { not: null } } });
      if (drawn > 0) return i;
      await new Promise((r) => setTimeout(r, 5)); // the lease's top-up runs after the admissions
    }
    throw new Error(`no request was drawn from a lease in ${max}`);
  }

  const account = async (id: string) => (await db()).account.findUniqueOrThrow({ where: { id }, select: { paidMicros: true, reservedMicros: true } });
  const liveLeases = async (accountId: string) => (await db()).creditLease.findMany({ where: { accountId, releasedAt: null } });
  const charged = async (accountId: string) => (await (await db()).usageRecord.aggregate({ where: { accountId }, _sum: { costMicros: true } }))._sum.costMicros ?? 0n;

  it('draws a busy account from the lease: no hold on the account or key; charges exact; the lease goes back when idle', async () => {
    const { user, key, apiKey } = await fundedUser(10);
    const accountId = user.personal_account_id;
    const prisma = await db();
    const n = await untilDrawn(key, accountId);
    for (let i = 0; i < 10; i++) expect((await post(key)).status).toBe(200);
    await h.runtime.settlements.drain();

    const drawn = await prisma.reservation.findMany({ where: { accountId, leaseId: { not: null } } });
    expect(drawn.length).toBeGreaterThanOrEqual(10);
    expect(drawn.every((r) => r.status === 'SETTLED' && !r.windowHeld)).toBe(true);
    // Settled draws left the lease; what the account holds is the lease's amount, nothing else.
    const leases = await liveLeases(accountId);
    expect(leases).toHaveLength(1);
    const before = await account(accountId);
    expect(before.reservedMicros).toBe(leases[0].amountMicros);
    expect(before.reservedMicros).toBeGreaterThan(0n);
    // Every request charged exactly what its record says, drawn or not.
    const spent = await charged(accountId);
    expect(spent).toBeGreaterThan(0n);
    expect(before.paidMicros).toBe(10_000_000n - spent);
    expect(await prisma.usageRecord.count({ where: { accountId } })).toBe(n + 10);
    // The key's window and total still count the drawn requests' cost; its last use is recorded.
    const k = await prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(k.totalSpentMicros).toBe(spent);
    expect(k.windowSpentMicros).toBe(spent);
    expect(k.lastUsedAt).not.toBeNull();

    await h.runtime.leases.credit.returnIdle(Date.now() + IDLE_MS + 1);
    const after = await account(accountId);
    expect(after.reservedMicros).toBe(0n);
    expect(after.paidMicros).toBe(before.paidMicros);
    expect(await liveLeases(accountId)).toHaveLength(0);
  });

  it('a deleted key fails on the very next request, lease or not', async () => {
    const { user, key, apiKey } = await fundedUser(10);
    await untilDrawn(key, user.personal_account_id);
    await deleteApiKey({ userId: user.id, keyId: apiKey.id });
    expect((await post(key)).status).toBe(401);
    // Another key of the same account is still drawn from the account's lease.
    const other = await createApiKey({ userId: user.id, input: { name: 'second' } });
    expect((await post(other.key)).status).toBe(200);
    expect((await post(other.key)).status).toBe(200);
    await h.runtime.settlements.drain();
    const prisma = await db();
    expect(await prisma.reservation.count({ where: { apiKeyId: other.apiKey.id, leaseId: { not: null } } })).toBeGreaterThan(0);
  });

  it('a key with a credit limit is never drawn from a lease: its window holds every request', async () => {
    const { user } = await fundedUser(10);
    const limited = await createApiKey({ userId: user.id, input: { name: 'limited', credit_limit: 5 } });
    for (let i = 0; i < 12; i++) expect((await post(limited.key)).status).toBe(200);
    await h.runtime.settlements.drain();
    const prisma = await db();
    expect(await prisma.reservation.count({ where: { apiKeyId: limited.apiKey.id, OR: [{ leaseId: { not: null } }, { windowHeld: false }] } })).toBe(0);
    const k = await prisma.apiKey.findUniqueOrThrow({ where: { id: limited.apiKey.id } });
    expect(k.windowSpentMicros).toBe(await charged(user.personal_account_id));
  });

  it('a lease released behind the process (its process taken for dead) is swept once; later requests are decided per request, charges exact', async () => {
    const { user, key } = await fundedUser(10);
    const accountId = user.personal_account_id;
    await untilDrawn(key, accountId);
    await h.runtime.settlements.drain();
    const [lease] = await liveLeases(accountId);
    // The sweeper takes the lease for a dead process's once it is past its expiry.
    const prisma = await db();
    await prisma.creditLease.update({ where: { id: lease.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweepExpiredLeases()).toBe(1);
    expect(await sweepExpiredLeases()).toBe(0);
    expect((await account(accountId)).reservedMicros).toBe(0n);
    // The process still believes in it: its next request names it, the statement refuses the draw and
    // decides the request against the account instead.
    for (let i = 0; i < 5; i++) expect((await post(key)).status).toBe(200);
    await h.runtime.settlements.drain();
    await h.runtime.leases.credit.returnIdle(Date.now() + IDLE_MS + 1);
    const a = await account(accountId);
    expect(a.reservedMicros).toBe(0n);
    expect(a.paidMicros).toBe(10_000_000n - (await charged(accountId)));
  });

  // PostgreSQL only: the embedded database runs one statement at a time on its one connection, so there the
  // lease's return always commits before the next request's admission statement runs (no such window exists).
  if (kind === 'postgres') it('a request refused for credit while an idle lease goes back waits for it and is admitted, not answered 402', async () => {
    const { user, key } = await fundedUser(10);
    const accountId = user.personal_account_id;
    await untilDrawn(key, accountId);
    await h.runtime.settlements.drain();
    const [lease] = await liveLeases(accountId);
    // All the account can still spend is in the lease: refund the rest.
    const a = await account(accountId);
    await grantCredits({ accountId, amountMicros: -(a.paidMicros - a.reservedMicros), kind: 'REFUND', idempotencyKey: `refund:${randomUUID()}` });
    const prisma = await db();
    let answer!: Promise<Response>;
    let idleReturn!: Promise<void>;
    // The lease's row is held, so its return (already out of this process's memory) waits in the database
    // while the request is decided per request, against an account still holding the lease.
    await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM "CreditLease" WHERE id = ${lease.id} FOR UPDATE`;
      idleReturn = h.runtime.leases.credit.returnIdle(Date.now() + IDLE_MS + 1);
      answer = post(key);
      await new Promise((r) => setTimeout(r, 500));
    }, { timeout: 10_000 });
    expect((await answer).status).toBe(200);
    await idleReturn;
    await h.runtime.settlements.drain();
    expect(await liveLeases(accountId)).toHaveLength(0);
    const after = await account(accountId);
    expect(after.reservedMicros).toBe(0n);
    expect(after.paidMicros).toBe(10_000_000n - (a.paidMicros - a.reservedMicros) - (await charged(accountId)));
  });

  it('shutdown returns every lease', async () => {
    const { user, key } = await fundedUser(10);
    await untilDrawn(key, user.personal_account_id);
    expect((await account(user.personal_account_id)).reservedMicros).toBeGreaterThan(0n);
    await h.renewRuntime({ creditLeases: true });
    expect((await account(user.personal_account_id)).reservedMicros).toBe(0n);
    expect(await liveLeases(user.personal_account_id)).toHaveLength(0);
  });

  it('an account close to its limit gets no lease: it is decided per request', async () => {
    const { user, key } = await fundedUser(0.01);
    const prisma = await db();
    for (let i = 0; i < 6; i++) await (await post(key)).text();
    await h.runtime.settlements.drain();
    expect(await prisma.creditLease.count({ where: { accountId: user.personal_account_id } })).toBe(0);
    const a = await account(user.personal_account_id);
    expect(a.reservedMicros).toBe(0n);
    expect(a.paidMicros).toBeGreaterThanOrEqual(0n);
  });
});
