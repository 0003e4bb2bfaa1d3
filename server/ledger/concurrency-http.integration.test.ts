// Concurrency through HTTP: 40 streaming requests at once against a balance that covers the worst case
// of only 4. The fake upstream replays OpenAI's recorded stream slowly, so admitted requests are still
// holding their reservations while the others arrive. Admission must refuse the excess with 402, the
// holds in flight must never exceed the balance, and once settlements are flushed the balance must have
// moved by exactly the sum of the `usage.cost` figures the clients were told in their final chunks.
import { primaryEndpoint } from '@/server/catalog/models-dto';
import { resolveModelOrThrow } from '@/server/routing/plan-route';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { parseChatRequest } from '@/server/gateway/chat-request-schema';
import { reservationMicros } from '@/server/gateway/cost';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { getBalanceOrThrow } from './balance';
import { usdToMicros } from './money';

const PARALLEL = 40;
const WORST_CASES_FUNDED = 4.5;
const body = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true, max_tokens: 2000 };

describeEachDatabase('concurrent streaming requests through HTTP', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h?.close());

  it(`${PARALLEL} parallel streams: excess refused with 402, no overspend, balance change == Σ usage.cost`, { timeout: 90_000 }, async () => {
    const worst = reservationMicros(parseChatRequest(body), primaryEndpoint(resolveModelOrThrow(h.runtime.routing.table(), body.model)));
    const funded = (worst * BigInt(WORST_CASES_FUNDED * 10)) / 10n;
    const u = await fundedUser(Number(funded) / 1e6);
    const account = u.user.personal_account_id;
    const before = await getBalanceOrThrow(account);
    expect(before.totalMicros).toBe(funded);
    h.respond = () => ({ status: 200, sse: fixtureChunks('openai', 'text'), delayMs: 40 });

    const responses = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      ),
    );
    const costs: bigint[] = [];
    const ids: string[] = [];
    let refused = 0;
    for (const res of responses) {
      if (res.status === 402) {
        refused++;
        expect((await res.json()).error.code).toBe(402);
        continue;
      }
      expect(res.status).toBe(200);
      const { chunks, done } = await readSse(res);
      expect(done).toBe(true);
      const last = chunks.at(-1);
      expect(last.choices[0].finish_reason).toBe('stop');
      costs.push(usdToMicros(last.usage.cost));
      ids.push(last.id);
    }
    expect(refused).toBeGreaterThan(0);
    expect(costs.length).toBeGreaterThan(0);
    expect(costs.length + refused).toBe(PARALLEL);

    await h.runtime.settlements.flush();
    const after = await getBalanceOrThrow(account);
    const spent = costs.reduce((a, b) => a + b, 0n);
    expect(before.totalMicros - after.totalMicros).toBe(spent);
    expect(after.reservedMicros).toBe(0n);
    expect(after.totalMicros).toBeGreaterThanOrEqual(0n); // the documented bound: no overspend when usage ≤ the hold

    const prisma = await db();
    const records = await prisma.usageRecord.findMany({ where: { accountId: account, status: { not: 'REFUSED' } }, select: { id: true, costMicros: true } });
    expect(records.map((r) => r.id).sort()).toEqual([...ids].sort());
    // The 402s are in the activity log, at no cost.
    const refusals = await prisma.usageRecord.findMany({ where: { accountId: account, status: 'REFUSED' }, select: { httpStatus: true, costMicros: true } });
    expect(refusals).toEqual(Array.from({ length: refused }, () => ({ httpStatus: 402, costMicros: 0n })));
    const byId = new Map(records.map((r) => [r.id, r.costMicros]));
    ids.forEach((id, i) => expect(byId.get(id)).toBe(costs[i]));
    const ledger = await prisma.ledgerEntry.aggregate({ where: { accountId: account }, _sum: { amountMicros: true } });
    expect(ledger._sum.amountMicros).toBe(after.totalMicros);

    // At no instant did the holds of overlapping generations exceed what the account held.
    const holds = await prisma.reservation.findMany({ where: { accountId: account }, select: { amountMicros: true, createdAt: true, settledAt: true } });
    expect(holds).toHaveLength(ids.length);
    for (const r of holds) {
      const overlapping = holds.filter((o) => o.createdAt <= r.createdAt && (o.settledAt === null || o.settledAt > r.createdAt));
      expect(overlapping.reduce((s, o) => s + o.amountMicros, 0n)).toBeLessThanOrEqual(funded);
    }
    expect(h.upstream.requests.length).toBeGreaterThanOrEqual(ids.length);
  });
});
