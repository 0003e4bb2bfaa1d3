// kill -9 under load, on a real gateway process (test/crash-gateway-server.ts, which starts what server/main.ts
// starts for money: the settlement journal, lease renewal and the sweeper). Concurrent clients stream and
// ask for complete answers; the gateway is killed at a random moment chosen the way the bug bit (just after
// a client received its final usage, while its settlement was still queued in memory); then a new process
// starts on the same database and journal directory. Afterwards:
//   - every generation whose final usage reached a client is charged exactly its usage.cost, once;
//   - the ledger matches the balance, nothing is charged twice, every charge equals its usage record;
//   - the dead process's reservations are released within lease + sweep interval of the kill (short
//     intervals here, so the test is fast; the defaults give 90 s + 15 s < 2 minutes, asserted below).
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { parseEnv } from '@/server/env';
import { getBalanceOrThrow } from './balance';
import { usdToMicros } from './money';
import { worstCaseReleaseMs } from './reservation-leases';
import { testDatabaseKinds } from '@/test/db';
import { killGatewayProcess, openCrashDatabase, startGatewayProcess, type GatewayProcess } from '@/test/crash-gateway';
import { createTestUser } from '@/test/factories';
import { fixtureChunks, readFixture, startFakeUpstream } from '@/test/fake-upstream';

const LEASE_MS = 6_000;
const SWEEP_MS = 500;
/**
 * The sweep's own time and polling on a loaded 2-core machine (a freshly reopened PGlite runs its first
 * statements slowly); a restart slower than the lease is accounted for separately.
 */
const SLACK_MS = 6_000;
const CLIENTS = 6;

it('the default lease and sweep interval release a dead process’s reservations within 2 minutes', () => {
  const e = parseEnv({});
  expect(worstCaseReleaseMs(e.RESERVATION_LEASE_MS, e.SWEEP_INTERVAL_MS)).toBeLessThanOrEqual(120_000);
});

interface Received {
  id: string;
  costMicros: bigint;
}

/** One request; resolves with the generation once its final usage reached us, null if it never did. */
async function oneRequest(origin: string, key: string, stream: boolean): Promise<Received | null> {
  const res = await fetch(`${origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream, max_tokens: 200 }),
  });
  if (res.status !== 200) return null;
  if (!stream) {
    const body = await res.json();
    return { id: body.id, costMicros: usdToMicros(body.usage.cost) };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (value) text += decoder.decode(value, { stream: true });
    // The usage chunk is what counts: the connection may die before [DONE]. The last piece may be incomplete.
    for (const block of text.split('\n\n').slice(0, -1)) {
      if (!block.startsWith('data: {')) continue;
      const chunk = JSON.parse(block.slice(6));
      if (chunk.usage) return { id: chunk.id, costMicros: usdToMicros(chunk.usage.cost) };
    }
    if (done) return null;
  }
}

for (const kind of testDatabaseKinds()) {
  describe(`kill -9 under load [${kind}]`, () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterAll(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('every usage a client received is charged exactly once; the dead process’s reservations are released in time', { timeout: 180_000 }, async () => {
      const upstream = await startFakeUpstream((req) =>
        (req.body as { stream?: boolean })?.stream
          ? { status: 200, sse: fixtureChunks('openai', 'text'), delayMs: 15 }
          : { status: 200, json: JSON.parse(readFixture('openai', 'cached_usage.json')) },
      );
      cleanups.push(() => upstream.close());
      const database = await openCrashDatabase(kind);
      cleanups.push(() => database.dispose());
      const funded = 10_000_000n;
      const u = await createTestUser(Number(funded) / 1e6);
      const accountId = u.user.personal_account_id;
      const env = { ...database.env, RESERVATION_LEASE_MS: String(LEASE_MS), SWEEP_INTERVAL_MS: String(SWEEP_MS) };
      await database.handOver();

      const first = await startGatewayProcess(env, upstream);
      const processes: GatewayProcess[] = [first];
      cleanups.push(() => Promise.all(processes.map((p) => killGatewayProcess(p, 'SIGKILL'))).then(() => {}));

      // Clients loop until the server dies; the kill comes right after the k-th final usage arrives.
      const received = new Map<string, bigint>();
      const killAfter = 8 + Math.floor(Math.random() * 25);
      let killedAt = 0;
      let failedInFlight = 0;
      let kill!: () => void;
      const killed = new Promise<void>((resolve) => (kill = resolve));
      const client = async (n: number) => {
        for (let i = 0; !killedAt; i++) {
          try {
            const r = await oneRequest(first.origin, u.key, (n + i) % 3 !== 0);
            if (r) received.set(r.id, r.costMicros);
            else if (killedAt) failedInFlight++;
            if (received.size >= killAfter) kill();
          } catch {
            if (killedAt) failedInFlight++;
            return;
          }
        }
      };
      const clients = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
      await killed;
      first.child.kill('SIGKILL');
      killedAt = Date.now();
      await killGatewayProcess(first, 'SIGKILL');
      await clients;
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(failedInFlight).toBeGreaterThan(0); // the kill caught generations in flight

      // The restarted server: replays the dead process's journal, sweeps its reservations once their lease ends.
      const second = await startGatewayProcess(env, upstream);
      const restartedAt = Date.now();
      processes.push(second);
      let releasedAt = 0;
      while (!releasedAt) {
        const { active } = await (await fetch(`${second.origin}/_crash/active-reservations`)).json();
        if (active === 0) releasedAt = Date.now();
        else if (Date.now() - killedAt > 90_000) throw new Error(`${active} hold(s) (reservations, credit leases) still on the ledger 90 s after the kill; the restarted server said: ${second.stderr()}`);
        else await new Promise((r) => setTimeout(r, 100));
      }
      // Released once the lease ran out and a sweep came — or at the restarted server's first sweeps, if it took
      // longer to start than the lease (PGlite on a loaded machine can).
      const bound = Math.max(worstCaseReleaseMs(LEASE_MS, SWEEP_MS), restartedAt - killedAt + SWEEP_MS);
      expect(releasedAt - killedAt).toBeLessThanOrEqual(bound + SLACK_MS);
      await killGatewayProcess(second, 'SIGTERM'); // a clean stop writes whatever it still had queued
      expect(second.child.exitCode).toBe(0);
      await database.takeBack();

      const prisma = await db();
      expect(received.size).toBeGreaterThanOrEqual(killAfter);
      const charges = await prisma.ledgerEntry.findMany({ where: { accountId, kind: 'USAGE' }, select: { generationId: true, amountMicros: true } });
      const charged = new Map(charges.map((c) => [c.generationId!, -c.amountMicros]));
      expect(charged.size).toBe(charges.length); // at most one charge per generation
      for (const [id, cost] of received) expect({ id, charged: charged.get(id) }).toEqual({ id, charged: cost });
      const records = new Map((await prisma.usageRecord.findMany({ where: { accountId }, select: { id: true, costMicros: true } })).map((r) => [r.id, r.costMicros]));
      for (const [id, cost] of charged) expect({ id, recorded: records.get(id) }).toEqual({ id, recorded: cost });
      expect(await prisma.reservation.count({ where: { accountId, status: 'ACTIVE' } })).toBe(0);
      const balance = await getBalanceOrThrow(accountId);
      expect(balance.reservedMicros).toBe(0n);
      expect(funded - balance.totalMicros).toBe([...charged.values()].reduce((a, b) => a + b, 0n));
      console.log(
        `[${kind}] kill -9 after ${received.size} usages received (${failedInFlight} requests cut): all charged exactly once ` +
          `(${charged.size} charges in all), holds (reservations, credit leases) released ${releasedAt - killedAt} ms after the kill (restart took ${restartedAt - killedAt} ms; bound ${bound} ms + ${SLACK_MS} ms slack)`,
      );
    });
  });
}
