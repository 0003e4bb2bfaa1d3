// The credit history through HTTP: human lines, usage one line per UTC day, the running balance (each line
// the previous one plus its amount, the newest equal to the account's balance), cursor paging, and who may read it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { getBalanceOrThrow, grantCredits } from '@/server/ledger/balance';
import { postLedgerEntry } from '@/server/ledger/post-ledger-entry';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller, createTestOrganization, createTestUser } from '@/test/factories';

const T0 = Date.parse('2026-03-10T08:00:00Z');
const at = (hours: number) => new Date(T0 + hours * 3_600_000);

describeEachDatabase('credit history', () => {
  let api: ApiServer;
  const call = apiCaller(() => api.origin);
  let owner: Awaited<ReturnType<typeof createTestUser>>;
  let member: Awaited<ReturnType<typeof createTestUser>>;
  let account: string;

  /** Posts a ledger entry and dates it (postLedgerEntry stamps now()). */
  async function post(kind: 'PURCHASE' | 'USAGE' | 'REFUND', micros: bigint, when: Date, key: string) {
    const prisma = await db();
    const e = await prisma.$transaction((tx) => postLedgerEntry(tx, { accountId: account, kind, paidMicros: micros, idempotencyKey: `${key}:${account}` }));
    await prisma.ledgerEntry.update({ where: { id: e.id }, data: { createdAt: when } });
  }

  beforeAll(async () => {
    api = await startApiServer();
    [owner, member] = await Promise.all([createTestUser(), createTestUser()]);
    account = owner.user.personal_account_id;
    await grantCredits({ accountId: account, amountMicros: 10_000_000n, idempotencyKey: `grant:${account}`, note: 'Welcome credit' });
    await (await db()).ledgerEntry.updateMany({ where: { accountId: account }, data: { createdAt: at(0) } });
    await post('USAGE', -1_000_000n, at(1), 'u1');
    await post('USAGE', -500_000n, at(2), 'u2');
    await post('PURCHASE', 20_000_000n, at(25), 'p1');
    await post('USAGE', -250_000n, at(26), 'u3');
    await post('REFUND', -5_000_000n, at(50), 'r1');
  });
  afterAll(() => api?.close());

  it('lines in words, usage per day, and a running balance that ends at the account balance', async () => {
    const res = await call('GET', '/users/me/credit-history', owner.key);
    expect(res.status).toBe(200);
    const { data, next_cursor } = await res.json();
    expect(next_cursor).toBeNull();
    expect(data.map((l: any) => [l.kind, l.label, l.amount, l.balance])).toEqual([
      ['refund', 'Refund', -5, 23.25],
      ['usage', 'Usage: 1 charged request', -0.25, 28.25],
      ['purchase', 'Credit purchase', 20, 28.5],
      ['usage', 'Usage: 2 charged requests', -1.5, 8.5],
      ['adjustment', 'Credit adjustment', 10, 10],
    ]);
    expect(data[1]).toMatchObject({ day: '2026-03-11', entries: 1, id: 'usage-2026-03-11' });
    expect(data[4].note).toBe('Welcome credit');
    // Each line is the previous balance plus its amount; the newest is the balance now.
    for (let i = 0; i < data.length - 1; i++) expect(BigInt(data[i].balance_micros)).toBe(BigInt(data[i + 1].balance_micros) + BigInt(data[i].amount_micros));
    expect(BigInt(data[0].balance_micros)).toBe((await getBalanceOrThrow(account)).totalMicros);
  });

  it('pages with a cursor and filters by time, balances still counting everything before', async () => {
    const first = await (await call('GET', '/users/me/credit-history?limit=2', owner.key)).json();
    expect(first.data.map((l: any) => l.kind)).toEqual(['refund', 'usage']);
    const second = await (await call('GET', `/users/me/credit-history?limit=2&cursor=${first.next_cursor}`, owner.key)).json();
    expect(second.error).toBeUndefined();
    expect(second.data.map((l: any) => l.kind)).toEqual(['purchase', 'usage']);
    const third = await (await call('GET', `/users/me/credit-history?limit=2&cursor=${second.next_cursor}`, owner.key)).json();
    expect(third.data.map((l: any) => l.kind)).toEqual(['adjustment']);
    expect(third.next_cursor).toBeNull();
    const ranged = await (await call('GET', `/users/me/credit-history?from=${at(24).toISOString()}&to=${at(48).toISOString()}`, owner.key)).json();
    expect(ranged.error).toBeUndefined();
    expect(ranged.data.map((l: any) => [l.kind, l.balance])).toEqual([
      ['usage', 28.25],
      ['purchase', 28.5],
    ]);
    expect((await call('GET', '/users/me/credit-history?limit=0', owner.key)).status).toBe(400);
    expect((await call('GET', '/users/me/credit-history?cursor=nope', owner.key)).status).toBe(400);
  });

  it('an organization’s needs billing:read; another user’s is a 404', async () => {
    const org = await createTestOrganization({ usd: 3, members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }] });
    const res = await call('GET', `/organizations/${org.id}/credit-history`, owner.key);
    expect(res.status).toBe(200);
    expect((await res.json()).data.map((l: any) => l.balance)).toEqual([3]);
    const refused = await call('GET', `/organizations/${org.id}/credit-history`, member.key);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe(403);
    expect((await call('GET', `/users/${owner.user.id}/credit-history`, member.key)).status).toBe(404);
  });
});
