// Deleting an organization while one of its generations is in flight, through HTTP: the generation is FREE
// (a model priced 0, as switchboard/echo: its reservation holds $0, so Account.reservedMicros stays 0), and the
// delete must still see it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { jsonClient, organizationWorld } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { replay } from '@/test/gateway-harness';

describeEachDatabase('DELETE /api/v1/organizations/{id} while a free generation is in flight', () => {
  let api: ApiServer;
  let upstream: FakeUpstream;
  /** Requests the upstream holds until the test lets them through. */
  let gate: { opened: Promise<void>; open: () => void; arrived: Promise<void>; arrive: () => void };
  const newGate = () => {
    let open!: () => void;
    let arrive!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    const arrived = new Promise<void>((r) => (arrive = r));
    gate = { opened, open, arrived, arrive };
  };
  const call = jsonClient(() => api.origin);

  beforeAll(async () => {
    resetEnvCache();
    const answer = replay('openai', 'text');
    upstream = await startFakeUpstream(async (req) => {
      gate.arrive();
      await gate.opened;
      return answer({ path: req.path, body: req.body, headers: req.headers });
    });
    api = await startApiServer({
      rateLimitRpm: 100_000,
      routing: {
        database: false,
        config: {
          providers: [{ id: 'slow', type: 'openai-compatible', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-slow-SECRET', id: 'slow-key' }] }],
          models: [{ id: 'test/free', name: 'free', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'slow', upstream_model: 'gpt-4o-mini', pricing: { input: 0, output: 0 } }] }],
        },
      },
    });
  });
  afterAll(async () => {
    gate?.open();
    await api?.close();
    await upstream?.close();
  });

  async function startFreeGeneration() {
    const w = await organizationWorld('In flight');
    const { key } = await createApiKey({ userId: w.member.id, input: { name: 'k', account_id: w.organizationId } });
    newGate();
    const generation = call('POST', '/chat/completions', key, { model: 'test/free', stream: false, messages: [{ role: 'user', content: 'hi' }] });
    await gate.arrived; // admitted (reserved $0) and waiting on the upstream
    return { w, generation };
  }

  it.each([false, true])('force=%s: refused with 409 until the generation has settled, then deleted; its usage record is kept', async (force) => {
    const { w, generation } = await startFreeGeneration();
    const path = `/organizations/${w.organizationId}${force ? '?force=true' : ''}`;
    const prisma = await db();
    expect((await prisma.account.findUniqueOrThrow({ where: { id: w.organizationId } })).reservedMicros).toBe(0n);

    const refused = await call('DELETE', path, w.owner.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ message: expect.stringMatching(/in flight/), metadata: { in_flight: 1 } });
    expect((await call('GET', `/organizations/${w.organizationId}`, w.owner.token)).status).toBe(200);

    gate.open();
    const answer = await generation;
    expect(answer.status).toBe(200);
    await api.runtime.settlements.flush();
    const record = await prisma.usageRecord.findUniqueOrThrow({ where: { id: answer.body.id } });
    expect(record).toMatchObject({ accountId: w.organizationId, status: 'SUCCESS', costMicros: 0n });
    expect(await prisma.reservation.findUniqueOrThrow({ where: { generationId: answer.body.id } })).toMatchObject({ status: 'SETTLED' });

    const deleted = await call('DELETE', path, w.owner.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ deleted: true, id: w.organizationId });
    // The organization's records stay with its billing account.
    expect(await prisma.usageRecord.count({ where: { accountId: w.organizationId } })).toBe(1);
  });
});
