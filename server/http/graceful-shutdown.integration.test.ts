// SIGTERM on a gateway process (test/crash-gateway-server.ts stops exactly as server/main.ts does, through
// graceful-shutdown.ts): it stops accepting connections at once, the stream in flight runs to its end, its
// charge is in the ledger, and the process exits 0. A stream still running when SHUTDOWN_GRACE_S ends is
// cut, and what it generated is settled all the same: no settlement is lost either way.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { testDatabaseKinds } from '@/test/db';
import { openCrashDatabase, startGatewayProcess, type GatewayProcess } from '@/test/crash-gateway';
import { createTestUser } from '@/test/factories';
import { fixtureChunks, startFakeUpstream, type FakeResponse } from '@/test/fake-upstream';

const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

async function startStream(g: GatewayProcess, key: string) {
  const res = await fetch(`${g.origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true, max_tokens: 1000 }),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('"content":"Hello"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended early');
    text += new TextDecoder().decode(value);
  }
  const rest = async () => {
    for (;;) {
      const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (r.done) return text;
      text += new TextDecoder().decode(r.value);
    }
  };
  return { generationId: res.headers.get('x-generation-id')!, rest };
}

for (const kind of testDatabaseKinds()) {
  describe(`SIGTERM: graceful shutdown [${kind}]`, () => {
    const cleanups: (() => Promise<unknown> | unknown)[] = [];
    afterEach(async () => {
      for (const c of cleanups.reverse()) await c();
      cleanups.length = 0;
    });

    async function run(answer: FakeResponse, graceS: number) {
      const upstream = await startFakeUpstream(() => answer);
      cleanups.push(() => upstream.close());
      const database = await openCrashDatabase(kind);
      cleanups.push(() => database.dispose());
      const u = await createTestUser(1);
      await database.handOver();
      const g = await startGatewayProcess({ ...database.env, SHUTDOWN_GRACE_S: String(graceS) }, upstream);
      cleanups.push(() => g.child.kill('SIGKILL'));
      const stream = await startStream(g, u.key);
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) => g.child.once('exit', (code, signal) => r({ code, signal })));
      const signalledAt = Date.now();
      g.child.kill('SIGTERM');
      return { u, g, stream, exited, signalledAt, database };
    }

    async function expectChargedOnce(generationId: string, accountId: string) {
      const prisma = await db();
      expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId } })).toMatchObject({ status: 'SETTLED' });
      const usage = await prisma.usageRecord.findUniqueOrThrow({ where: { id: generationId } });
      expect(usage.costMicros).toBeGreaterThan(0n);
      const entries = await prisma.ledgerEntry.findMany({ where: { generationId }, select: { amountMicros: true } });
      expect(entries).toEqual([{ amountMicros: -usage.costMicros }]);
      expect(await getBalanceOrThrow(accountId)).toMatchObject({ totalMicros: 1_000_000n - usage.costMicros, reservedMicros: 0n });
      return usage;
    }

    it('stops accepting at once, lets the stream in flight finish, charges it, exits 0', { timeout: 120_000 }, async () => {
      const { u, g, stream, exited, database } = await run({ status: 200, sse: fixtureChunks('openai', 'text'), delayMs: 300 }, 20);
      await expect.poll(() => refusesConnections(g.port), { timeout: 5_000, interval: 50 }).toBe(true);
      const text = await stream.rest();
      expect(text).toContain('data: [DONE]');
      expect(text).toMatch(/"usage":\{[^}]*"prompt_tokens"/);
      expect(await exited).toEqual({ code: 0, signal: null });
      await database.takeBack();
      const usage = await expectChargedOnce(stream.generationId, u.user.personal_account_id);
      expect(usage.status).toBe('SUCCESS');
    });

    it('a stream still running when SHUTDOWN_GRACE_S ends is cut, settled for what it generated, and the process exits 0', { timeout: 120_000 }, async () => {
      const { u, stream, exited, signalledAt, database } = await run({ status: 200, sse: fixtureChunks('openai', 'text'), hangAfter: 3 }, 1);
      await stream.rest(); // cut by the server after the grace
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(900);
      await database.takeBack();
      await expectChargedOnce(stream.generationId, u.user.personal_account_id);
    });
  });
}
