// A finished request's settlement waits up to 100 ms in the process's queue (settlement-queue.ts) and its
// reservation holds the account's credit until it is written. A client sending requests one after another faster
// than that must not be refused with its credit unspent: before a 402 for credit, the queued settlements of the
// account are written and the request is decided again. Through HTTP, with the queue's interval lengthened to a
// minute so that nothing is written unless the admission asks for it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';

// Echo costs $1/M tokens both ways: max_tokens 1000 holds 1000 µ$ + the prompt estimate; it spends a few µ$.
const chat = (origin: string, key: string) =>
  fetch(`${origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false, max_tokens: 1000 }),
  });

describeEachDatabase('settlements still queued when an account runs short', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer({ settlementIntervalMs: 60_000, creditLeases: false });
  });
  afterAll(async () => {
    await api?.runtime.settlements.flush();
    await api?.close();
  });

  it('requests one after another are admitted while the credit they did not spend waits to be settled', async () => {
    // $0.0025 covers two reservations of ~1,006 µ$ at once, not three.
    const u = await createTestUser(0.0025);
    const costs: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await chat(api.origin, u.key);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      costs.push(body.usage.cost);
    }
    await api.runtime.settlements.flush();
    const prisma = await db();
    const account = await prisma.account.findUniqueOrThrow({ where: { id: u.user.personal_account_id } });
    const spent = costs.reduce((sum, c) => sum + Math.round(c * 1e6), 0);
    expect(account.reservedMicros).toBe(0n);
    expect(Number(account.paidMicros + account.promoMicros)).toBe(2500 - spent);
    expect(await prisma.reservation.count({ where: { accountId: u.user.personal_account_id, status: 'SETTLED' } })).toBe(6);
  });

  it('an account that cannot pay is still refused, after its queued settlements are written', async () => {
    const u = await createTestUser(0.0015); // one reservation, not two
    expect((await chat(api.origin, u.key)).status).toBe(200);
    expect(api.runtime.settlements.holdsCreditOf(u.user.personal_account_id)).toBe(true);
    expect((await chat(api.origin, u.key)).status).toBe(200); // the first one's settlement written, then admitted
    // A few µ$ of 1,500 spent: once the second one's queued settlement is written, 1,006 µ$ of reservation still fits.
    const third = await chat(api.origin, u.key);
    expect(third.status).toBe(200);
    const prisma = await db();
    // More than is left: max_tokens 1,600 holds more than the balance, a 402 once the third one's settlement is written.
    const big = await fetch(`${api.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false, max_tokens: 1600 }),
    });
    expect(big.status).toBe(402);
    expect(api.runtime.settlements.holdsCreditOf(u.user.personal_account_id)).toBe(false);
    const account = await prisma.account.findUniqueOrThrow({ where: { id: u.user.personal_account_id } });
    expect(account.reservedMicros).toBe(0n);
  });
});
