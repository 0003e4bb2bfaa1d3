// Early dispatch through real HTTP (gateway/early-dispatch.ts): a warm key's provider request goes out
// while its admission waits on the database, yet nothing the client sees changes. On PostgreSQL the test
// holds the account's row lock, so "admission still in the database" lasts as long as the test wants
// (embedded PGlite runs one statement at a time, so a held lock there would stall the test's own queries).
// "Not sent early" is checked once the admission statement is seen waiting on that lock in pg_stat_activity:
// the early-dispatch decision is made, and a dispatch started (runtime.upstream.send), before that statement
// is issued, so at that point a request that was going to leave early has already called send.
//
// The second part: a change to what admission decides with (a key disabled, rotated or its user suspended, an
// organization's allowed providers or models, a provider key saved) made through the REST API stops early
// dispatch at once on this server (the write reads the admission revision before it answers), and one made
// in the database directly (another instance, psql) within about a second (the runtime's poll). "Not sent
// early" there is read off runtime.upstream.send, which a request dispatched early calls before its admission
// statement is issued: after the answer, a request that was not refused has called it exactly once, a refused one never.
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { readAdmissionRevision } from '@/server/gateway/admission-revision';
import { IDLE_MS } from '@/server/ledger/credit-leases';
import { grantCredits } from '@/server/ledger/balance';
import { createOrganization } from '@/server/organizations/create-organization';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { createTestKey } from '@/test/factories';
import { startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { generateSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, readSse, replay, settleAndReturnLeases, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await sleep(10);
  }
  return cond();
}

/** Resolves once `n` statements of the test database wait on a lock (admissions behind holdAccountLock). */
async function admissionsBlocked(n: number): Promise<void> {
  const prisma = await db();
  const until = Date.now() + 5_000;
  for (;;) {
    const [{ waiting }] = await prisma.$queryRaw<{ waiting: bigint }[]>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (Number(waiting) >= n) return;
    if (Date.now() > until) throw new Error(`expected ${n} admission(s) waiting on the account lock, saw ${waiting}`);
    await sleep(10);
  }
}

/** Locks the account row in a transaction of its own until the returned function is called. */
async function holdAccountLock(accountId: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = (await db()).$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${accountId} FOR UPDATE`;
      locked();
      await gate;
    },
    { timeout: 30_000, maxWait: 5_000 },
  );
  await isLocked;
  return async () => {
    release();
    await done;
  };
}

describeEachDatabase('chat completions: early dispatch', (kind) => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h?.close());
  beforeEach(async () => {
    delete process.env.EARLY_DISPATCH;
    resetEnvCache();
    await h.renewRuntime(); // no key is warm
    h.respond = replay('openai', 'text');
  });

  const body = (stream: boolean) => JSON.stringify({ model: 'openai/gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] });
  const post = (key: string, stream = false) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: body(stream) });

  /** After one admitted request, the next waits for its admission (held by a row lock) before reaching the provider. */
  async function expectNotDispatchedEarly(u: Awaited<ReturnType<typeof fundedUser>>) {
    expect((await post(u.key)).status).toBe(200);
    const release = await holdAccountLock(u.user.personal_account_id);
    const before = h.upstream.requests.length;
    const send = vi.spyOn(h.runtime.upstream, 'send');
    const res = post(u.key);
    try {
      await admissionsBlocked(1);
      expect(send).not.toHaveBeenCalled();
      expect(h.upstream.requests.length).toBe(before);
    } finally {
      await release();
    }
    expect((await res).status).toBe(200);
    expect(send).toHaveBeenCalledTimes(1); // sent after its admission
    expect(h.upstream.requests.length).toBe(before + 1);
    send.mockRestore();
  }

  it('an unknown key never reaches the provider, and neither does a refused one afterwards', async () => {
    const before = h.upstream.requests.length;
    const unknown = generateSecret(TOKEN_PREFIX.apiKey);
    expect((await post(unknown)).status).toBe(401);
    expect((await post(unknown, true)).status).toBe(401);

    const u = await fundedUser(10);
    expect((await post(u.key)).status).toBe(200); // warm now
    const afterWarm = h.upstream.requests.length;
    expect(afterWarm).toBe(before + 1);
    await deleteApiKey({ userId: u.user.id, keyId: u.apiKey.id });
    expect((await post(u.key)).status).toBe(401); // may have been dispatched early, then refused: forgotten
    const afterRefusal = h.upstream.requests.length;
    expect(afterRefusal - afterWarm).toBeLessThanOrEqual(1);
    expect((await post(u.key)).status).toBe(401);
    expect((await post(u.key, true)).status).toBe(401);
    expect(h.upstream.requests.length).toBe(afterRefusal);
  });

  it.skipIf(kind !== 'postgres')('a key whose credit left covers less than 20 of its reservations is not dispatched early', async () => {
    const u = await fundedUser(0.15); // gpt-4o-mini reserves ~$0.01 (its whole max output): ~15 reservations
    await expectNotDispatchedEarly(u);
  });

  it.skipIf(kind !== 'postgres')("a warm key's provider request is sent while its admission waits on the database; a cold key's is not", async () => {
    const u = await fundedUser(10);
    expect((await post(u.key)).status).toBe(200); // warm
    const cold = await createApiKey({ userId: u.user.id, input: { name: 'cold' } });

    const release = await holdAccountLock(u.user.personal_account_id);
    let warmAnswered = false;
    let coldAnswered = false;
    const before = h.upstream.requests.length;
    const send = vi.spyOn(h.runtime.upstream, 'send');
    const warmRes = post(u.key, true).then((r) => ((warmAnswered = true), r));
    const coldRes = post(cold.key, true).then((r) => ((coldAnswered = true), r));
    try {
      expect(await waitFor(() => h.upstream.requests.length === before + 1, 3_000)).toBe(true);
      await admissionsBlocked(2);
      // Both admissions wait, and exactly one request went out (the warm key's); neither client has an answer.
      expect(send).toHaveBeenCalledTimes(1);
      expect(h.upstream.requests.length).toBe(before + 1);
      expect(warmAnswered || coldAnswered).toBe(false);
    } finally {
      await release();
    }
    const [w, c] = await Promise.all([warmRes, coldRes]);
    expect([w.status, c.status]).toEqual([200, 200]);
    const [ws, cs] = await Promise.all([readSse(w), readSse(c)]);
    expect(ws.done && cs.done).toBe(true);
    expect(ws.chunks.map((x) => x.choices?.[0]?.delta?.content ?? '').join('')).toBe(cs.chunks.map((x) => x.choices?.[0]?.delta?.content ?? '').join(''));
    expect(h.upstream.requests.length).toBe(before + 2);
    send.mockRestore();
    await settleAndReturnLeases(h);
    const bal = await getBalanceOrThrow(u.user.personal_account_id);
    expect(bal.reservedMicros).toBe(0n);
  });

  it.skipIf(kind !== 'postgres')('a key deleted after it warmed: its early request is aborted, the client gets 401, nothing is charged', async () => {
    h.respond = () => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), delayMs: 100 });
    const u = await fundedUser(10);
    const first = await post(u.key, true);
    expect(first.status).toBe(200);
    await readSse(first);
    await h.runtime.settlements.flush();
    const balanceBefore = await getBalanceOrThrow(u.user.personal_account_id);
    const usageBefore = await (await db()).usageRecord.count({ where: { accountId: u.user.personal_account_id } });
    await deleteApiKey({ userId: u.user.id, keyId: u.apiKey.id });

    const release = await holdAccountLock(u.user.personal_account_id);
    const before = h.upstream.requests.length;
    const res = post(u.key, true);
    try {
      expect(await waitFor(() => h.upstream.requests.length === before + 1, 3_000)).toBe(true);
    } finally {
      await release();
    }
    const r = await res;
    expect(r.status).toBe(401);
    expect((await r.json()).error.message).toBe('Invalid API key');
    expect((await h.upstream.whenClosed(before)).aborted).toBe(true);

    await h.runtime.settlements.flush();
    const balanceAfter = await getBalanceOrThrow(u.user.personal_account_id);
    expect(balanceAfter.totalMicros).toBe(balanceBefore.totalMicros);
    expect(balanceAfter.reservedMicros).toBe(0n);
    expect(await (await db()).usageRecord.count({ where: { accountId: u.user.personal_account_id } })).toBe(usageBefore);
  });

  it.skipIf(kind !== 'postgres')('EARLY_DISPATCH=0 turns it off', async () => {
    process.env.EARLY_DISPATCH = '0';
    resetEnvCache();
    try {
      const u = await fundedUser(10);
      await expectNotDispatchedEarly(u);
    } finally {
      delete process.env.EARLY_DISPATCH; // on again, as by default, for whatever runs after
      resetEnvCache();
    }
  });
});

describeEachDatabase('early dispatch stops when what admission decides with changes', (kind) => {
  let api: ApiServer;
  const upstreams: Record<'alpha' | 'beta', FakeUpstream> = {} as never;
  const call = jsonClient(() => api.origin);
  const savedEnv = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };

  const config = (): RoutingFileInput => ({
    providers: (['alpha', 'beta'] as const).map((id) => ({ id, type: 'openai-compatible' as const, base_url: `${upstreams[id].url}/v1`, keys: [{ key: `sk-operator-${id}` }] })),
    models: [
      {
        id: 'test/both',
        name: 'Both',
        context_length: 100_000,
        max_output_tokens: 1_000,
        endpoints: (['alpha', 'beta'] as const).map((provider) => ({ provider, upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } })),
      },
      { id: 'test/other', name: 'Other', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'alpha', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } }] },
    ],
  });

  beforeAll(async () => {
    const answer = (req: RecordedRequest): FakeResponse =>
      (req.body as { stream?: boolean })?.stream
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt') }
        : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) };
    upstreams.alpha = await startFakeUpstream(answer);
    upstreams.beta = await startFakeUpstream(answer);
    // The built-in openai provider (for the provider key) is served by alpha as well.
    process.env.OPENAI_BASE_URL = `${upstreams.alpha.url}/v1`;
    process.env.OPENAI_API_KEY = 'sk-operator-openai';
    delete process.env.EARLY_DISPATCH; // on, as by default (the part above turns it off in its last test)
    resetEnvCache();
    api = await startApiServer({ routing: { config: config(), database: false }, rateLimitRpm: 100_000 });
  });
  afterAll(async () => {
    await api?.close();
    // Saving a provider key checks the provider against the process runtime's routing table, which creates it.
    await processRuntime().close();
    await Promise.all(Object.values(upstreams).map((u) => u?.close()));
    process.env.OPENAI_BASE_URL = savedEnv.url;
    process.env.OPENAI_API_KEY = savedEnv.key;
    resetEnvCache();
  });

  const chat = (key: string, model = 'test/both') =>
    fetch(`${api.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: false, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 }),
    });
  const counts = () => ({ alpha: upstreams.alpha.requests.length, beta: upstreams.beta.requests.length });

  /** Three admitted requests: the key is warm (and, unchanged, would be dispatched early next). */
  async function warm(key: string, model = 'test/both') {
    for (let i = 0; i < 3; i++) expect((await chat(key, model)).status).toBe(200);
    await api.runtime.settlements.flush();
  }

  /** A user with credit and an auth token for the REST API, and an API key of their personal account. */
  async function personal() {
    const u = await testUser('early');
    await grantCredits({ accountId: u.personalAccountId, amountMicros: 10_000_000n, idempotencyKey: `early:${u.id}` });
    const { key, apiKey } = await createApiKey({ userId: u.id, input: { name: 'early' } });
    return { u, key, keyId: apiKey.id };
  }

  /** An organization with credit, its owner (auth token) and an API key of the owner on it. */
  async function organization() {
    const owner = await testUser('owner');
    const org = await createOrganization({ userId: owner.id, input: { name: 'Early' } });
    await grantCredits({ accountId: org.id, amountMicros: 10_000_000n, idempotencyKey: `early:${org.id}` });
    const key = await createTestKey(owner.id, org.id);
    return { owner, org, key: key.key };
  }

  /** The next request right after the change: its answer, and the provider requests it started (early or not). */
  async function nextRequest(key: string, model = 'test/both') {
    const send = vi.spyOn(api.runtime.upstream, 'send');
    try {
      const before = counts();
      const res = await chat(key, model);
      const body = await res.json();
      return { status: res.status, body, sends: send.mock.calls.length, before };
    } finally {
      send.mockRestore();
    }
  }

  it('a key disabled through the REST API: its next request is refused and never reaches a provider', async () => {
    const { u, key, keyId } = await personal();
    await warm(key);
    expect((await call('PATCH', `/api-keys/${keyId}`, u.token, { disabled: true })).status).toBe(200);
    const next = await nextRequest(key);
    expect(next.status).toBe(403);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
  });

  it('a key rotated with no grace period: the old secret gets 401 and never reaches a provider', async () => {
    const { u, key, keyId } = await personal();
    await warm(key);
    const rotated = await call('POST', `/api-keys/${keyId}/rotate`, u.token, {});
    expect(rotated.status).toBe(200);
    const next = await nextRequest(key);
    expect(next.status).toBe(401);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
    expect((await chat(rotated.body.key)).status).toBe(200);
  });

  it('a user suspended by an operator: their key’s next request is refused and never reaches a provider', async () => {
    const { u, key } = await personal();
    const operator = await testUser('operator');
    await (await db()).user.update({ where: { id: operator.id }, data: { isOperator: true } });
    await warm(key);
    expect((await call('POST', `/admin/users/${u.id}/suspend`, operator.token, { reason: 'test' })).status).toBe(200);
    const next = await nextRequest(key);
    expect(next.status).toBe(403);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
  });

  it('allowed_providers saved for the organization: the next request goes to the allowed provider only', async () => {
    const { owner, org, key } = await organization();
    await warm(key);
    const warmed = counts();
    expect(warmed.alpha).toBeGreaterThanOrEqual(3); // alpha is the primary
    expect((await call('PUT', `/organizations/${org.id}`, owner.token, { settings: { allowed_providers: ['beta'] } })).status).toBe(200);
    const next = await nextRequest(key);
    expect(next.status).toBe(200);
    expect(next.sends).toBe(1); // after its admission, to beta
    expect(counts()).toEqual({ alpha: next.before.alpha, beta: next.before.beta + 1 });
  });

  it('allowed_models saved for the organization: the next request is refused and never reaches a provider', async () => {
    const { owner, org, key } = await organization();
    await warm(key);
    expect((await call('PUT', `/organizations/${org.id}`, owner.token, { settings: { allowed_models: ['test/other'] } })).status).toBe(200);
    const next = await nextRequest(key);
    expect(next.status).toBe(403);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
  });

  it('a provider key saved for the organization: the next request reaches the provider once, with that key, never with the operator’s', async () => {
    const own = 'sk-proj-OWN-early-dispatch-0123456789-WXYZ';
    const { owner, org, key } = await organization();
    await warm(key, 'openai/gpt-4o-mini');
    expect(upstreams.alpha.requests.at(-1)!.headers.authorization).toBe('Bearer sk-operator-openai');
    expect((await call('PUT', `/organizations/${org.id}/provider-keys/openai`, owner.token, { key: own })).status).toBe(200);
    const next = await nextRequest(key, 'openai/gpt-4o-mini');
    expect(next.status).toBe(200);
    expect(next.sends).toBe(1);
    const sent: RecordedRequest[] = upstreams.alpha.requests.slice(next.before.alpha);
    expect(sent.map((r) => r.headers.authorization)).toEqual([`Bearer ${own}`]);
  });

  it('a change made in the database directly (another instance) stops early dispatch within about a second', async () => {
    const { key, keyId } = await personal();
    await warm(key);
    const generation = api.runtime.warmKeys.generation;
    const changedAt = Date.now();
    await (await db()).$executeRaw`UPDATE "ApiKey" SET "disabledAt" = now() WHERE id = ${keyId}`;
    // No write went through this process: only the runtime's poll of the revision can see it.
    expect(await waitFor(() => api.runtime.warmKeys.generation !== generation, 1_500)).toBe(true);
    expect(Date.now() - changedAt).toBeLessThan(1_500);
    expect(api.runtime.warmKeys.size).toBe(0);
    const next = await nextRequest(key);
    expect(next.status).toBe(403);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
  });

  it.skipIf(kind !== 'postgres')('an admission that read the state before a change does not warm its key again', async () => {
    const { u } = await personal();
    // A spend limit: its admissions are decided against the account (and lock it), never drawn from a credit lease.
    const { key, id: keyId } = await createTestKey(u.id, u.personalAccountId, { credit_limit: 5 });
    await warm(key);
    // The next admission's statement reads the key, then waits on the account's row lock; meanwhile the key is
    // disabled and the runtime sees it. The statement still answers with what it read: admitted.
    const release = await holdAccountLock(u.personalAccountId);
    const inFlight = chat(key);
    try {
      await admissionsBlocked(1);
      await (await db()).$executeRaw`UPDATE "ApiKey" SET "disabledAt" = now() WHERE id = ${keyId}`;
      await api.runtime.admissionRevision.check();
    } finally {
      await release();
    }
    expect((await inFlight).status).toBe(200); // a request sent before the change
    const next = await nextRequest(key);
    expect(next.status).toBe(403);
    expect(next.sends).toBe(0);
    expect(counts()).toEqual(next.before);
  });

  it('the chat path’s own writes (admission, settlement, credit leases) leave the revision alone: a warm key is still dispatched early', async () => {
    // A key with a spend limit of a member with one (the admission statement writes both windows), and a
    // personal key without (its requests may draw on a credit lease).
    const { org, key: ownerKey } = await organization();
    const member = await testUser('member');
    await (await db()).membership.create({ data: { organizationId: org.id, userId: member.id, role: 'MEMBER', spendLimitMicros: 5_000_000n } });
    const memberKey = await createTestKey(member.id, org.id, { credit_limit: 5 });
    const { key: personalKey } = await personal();
    await api.runtime.admissionRevision.check(); // the setup's own changes are seen
    const revision = await readAdmissionRevision();
    const generation = api.runtime.warmKeys.generation;

    const claim = vi.spyOn(api.runtime.warmKeys, 'claim');
    try {
      for (const k of [memberKey.key, personalKey, ownerKey]) {
        for (let i = 0; i < 4; i++) expect((await chat(k)).status).toBe(200);
      }
      await api.runtime.settlements.flush();
      await api.runtime.leases.credit.returnIdle(Date.now() + IDLE_MS + 1);
      await api.runtime.admissionRevision.check();
      expect(await readAdmissionRevision()).toBe(revision);
      expect(api.runtime.warmKeys.generation).toBe(generation);
      // Every key's requests after its first were claimed for early dispatch.
      expect(claim.mock.results.filter((r) => r.value === true).length).toBe(9);
    } finally {
      claim.mockRestore();
    }
    if (kind === 'postgres') {
      // And they do go out before their admission has answered (held here by the account's row lock).
      const release = await holdAccountLock(org.id);
      const send = vi.spyOn(api.runtime.upstream, 'send');
      const res = chat(memberKey.key);
      try {
        await admissionsBlocked(1);
        expect(send).toHaveBeenCalledTimes(1);
      } finally {
        await release();
        send.mockRestore();
      }
      expect((await res).status).toBe(200);
    }
  });
});
