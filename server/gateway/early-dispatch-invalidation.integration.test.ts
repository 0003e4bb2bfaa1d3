// Early dispatch stops when what admission decides with changes (gateway/admission-revision.ts, early-dispatch.ts).
// A change to what admission decides with (a key disabled, rotated or its user suspended, an
// organization's allowed providers or models, a provider key saved) made through the REST API stops early
// dispatch at once on this server (the write reads the admission revision before it answers), and one made
// in the database directly (another instance, psql) within about a second (the runtime's poll). "Not sent
// early" there is read off runtime.upstream.send, which a request dispatched early calls before its admission
// statement is issued: after the answer, a request that was not refused has called it exactly once, a refused one never.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
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
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture } from '@/test/fake-upstream';
import { admissionsBlocked, holdAccountLock, waitFor } from '@/test/account-lock';

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
