// In production the custom server (dist/server.js) and Next's server bundle are two copies of the server
// code in one process. Here the test file's imports are one copy (the custom server's) and, after
// vi.resetModules(), the Next route module loads a second copy of everything it imports: a settlement made
// through that route must land in the queue the first copy's shutdown drains.
import { expect, it, vi } from 'vitest';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { describeEachDatabase } from '@/test/db';
import { fundedUser } from '@/test/gateway-harness';
import { processRuntime } from './process-runtime';

describeEachDatabase('one runtime per process', () => {
  it('the Next route (a second copy of the code) enqueues into the runtime that shutdown drains', async () => {
    const u = await fundedUser(1);
    const runtime = processRuntime(); // created first, as server/main.ts does before Next starts
    const enqueue = vi.spyOn(runtime.settlements, 'enqueue');

    vi.resetModules();
    const secondCopy = await import('./process-runtime');
    const route = await import('@/app/api/v1/chat/completions/route');
    expect(secondCopy.processRuntime).not.toBe(processRuntime); // really another copy of the module
    expect(secondCopy.processRuntime()).toBe(runtime);

    const res = await route.POST(
      new Request('http://localhost/api/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'hi' }] }),
      }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    await vi.waitFor(() => expect(enqueue).toHaveBeenCalledWith(expect.objectContaining({ generationId: body.id })));

    await runtime.close(); // what shutdown does
    expect(runtime.settlements.pending()).toBe(0);
    const balance = await getBalanceOrThrow(u.user.personal_account_id);
    expect(balance.reservedMicros).toBe(0n);
    expect(balance.paidMicros + balance.promoMicros).toBe(1_000_000n - BigInt(Math.round(body.usage.cost * 1e6)));
  });
});
