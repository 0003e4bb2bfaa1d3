// Issue 16's policy at admission, through real HTTP against fake upstreams: the organization's allowed
// models and providers, per-member spend limits under concurrency, disabled keys, per-key request and token
// rate limits, and bring-your-own-key (the account's key reaches the provider, the operator's never; the
// charge is the BYOK fee; a refused BYOK key is reported, not replaced).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateApiKey } from '@/server/api-keys/update-api-key';
import { encryptSecret } from '@/server/crypto/secret-box';
import { db, Prisma } from '@/server/db';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization, createTestUser } from '@/test/factories';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const ok = (req: RecordedRequest): FakeResponse =>
  (req.body as { stream?: boolean })?.stream
    ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt') }
    : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) };

const FEE_BPS = 500; // 5 %

describeEachDatabase('organization policy, member limits, key limits and BYOK at admission', () => {
  let h: GatewayHarness;
  const upstreams: Record<string, FakeUpstream> = {};
  const behaviour: Record<string, (req: RecordedRequest) => FakeResponse> = { alpha: ok, beta: ok };

  const config = (): RoutingFileInput => ({
    providers: ['alpha', 'beta'].map((id) => ({ id, type: 'openai-compatible' as const, base_url: `${upstreams[id]!.url}/v1`, keys: [{ key: `sk-operator-${id}` }] })),
    models: [
      {
        id: 'test/both',
        name: 'Both',
        context_length: 100_000,
        max_output_tokens: 1_000,
        endpoints: ['alpha', 'beta'].map((provider) => ({ provider, upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } })),
      },
      { id: 'test/other', name: 'Other', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'alpha', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } }] },
    ],
  });

  beforeAll(async () => {
    for (const id of ['alpha', 'beta']) upstreams[id] = await startFakeUpstream((req) => behaviour[id]!(req));
    h = await startGatewayHarness({ routing: { config: config(), database: false }, byokFeeBps: FEE_BPS });
  });
  afterAll(async () => {
    await h?.close();
    await Promise.all(Object.values(upstreams).map((u) => u.close()));
  });

  const chat = (key: string, body: Record<string, unknown> = {}) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/both', messages: [{ role: 'user', content: 'hi' }], stream: false, max_tokens: 100, ...body }),
    });

  async function organization(settings: Prisma.InputJsonObject = {}, usd = 20) {
    const owner = await createTestUser();
    const member = await createTestUser();
    const org = await createTestOrganization({ members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }], usd });
    await (await db()).organization.update({ where: { id: org.id }, data: { settings } });
    const key = await createTestKey(member.user.id, org.id);
    return { org, owner, member, key };
  }

  const settled = () => h.runtime.settlements.drain();

  it('allowed_models: a member key gets 403 naming the model; an allowed model (by id) works', async () => {
    const { key } = await organization({ allowed_models: ['test/other'] });
    const refused = await chat(key.key);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.error.message).toContain('test/both');
    expect(body.error.metadata).toMatchObject({ model: 'test/both', reason: 'organization_policy', allowed_models: ['test/other'] });
    expect((await chat(key.key, { model: 'test/other' })).status).toBe(200);
    // Streaming requests are refused before any byte as well.
    expect((await chat(key.key, { stream: true })).status).toBe(403);
  });

  it('allowed_models holds for fallback models too (`models`): the organization’s and the key’s own; a disallowed fallback is skipped, never served', async () => {
    const { key, member, org } = await organization({ allowed_models: ['test/other'] });
    const own = await createTestKey(member.user.id, org.id, { allowed_models: ['test/other'] });
    const freeOrg = await organization();
    const keyOnly = await createTestKey(freeOrg.member.user.id, freeOrg.org.id, { allowed_models: ['test/other'] });
    behaviour.alpha = () => ({ status: 503, json: { error: { message: 'overloaded' } } }); // test/other's only endpoint fails
    try {
      for (const k of [key.key, own.key, keyOnly.key]) {
        const before = upstreams.beta!.requests.length;
        const res = await chat(k, { model: 'test/other', models: ['test/both'] });
        expect(res.status, 'not served by the disallowed fallback').toBeGreaterThanOrEqual(500);
        expect(upstreams.beta!.requests.length, 'test/both’s beta endpoint never called').toBe(before);
      }
      // The same fallback where it is allowed: served by beta.
      const allowed = await organization();
      const served = await chat(allowed.key.key, { model: 'test/other', models: ['test/both'] });
      expect(served.status).toBe(200);
      expect((await served.json()).model).toBe('test/both');
    } finally {
      behaviour.alpha = ok;
      await h.renewRuntime(); // alpha's key cooled down after its 503s: the tests below start with a healthy one
    }
  });

  it('allowed_providers: other providers’ endpoints are skipped; none left → 403', async () => {
    const before = upstreams.alpha!.requests.length;
    const { key } = await organization({ allowed_providers: ['beta'] });
    const res = await chat(key.key);
    expect(res.status).toBe(200);
    expect((await res.json()).provider).toBe('beta');
    expect(upstreams.alpha!.requests.length).toBe(before); // alpha, the primary, was never called

    const { key: none } = await organization({ allowed_providers: ['gamma'] });
    const refused = await chat(none.key);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.metadata).toMatchObject({ reason: 'organization_policy', allowed_providers: ['gamma'] });
  });

  it('twenty concurrent requests of one member never spend past the member’s limit (402 with the limit)', async () => {
    const { org, member, key } = await organization({}, 50);
    const prisma = await db();
    const limitMicros = 10_000n; // a request reserves ~$0.0002 + output: a few fit
    await prisma.membership.update({ where: { organizationId_userId: { organizationId: org.id, userId: member.user.id } }, data: { spendLimitMicros: limitMicros, limitReset: 'DAILY' } });
    // A second key of the same member shares the member's window.
    const second = await createTestKey(member.user.id, org.id);
    // Each answer spends most of its reservation (900 of 1,000 output tokens, ~1,800 µ$): twenty cannot fit in the
    // limit however their settlements are timed (a refusal first writes the settlements waiting in the queue).
    const costly = (req: RecordedRequest): FakeResponse => {
      const body = JSON.parse(readFixture('openai', 'text.json'));
      body.usage = { prompt_tokens: 8, completion_tokens: 900, total_tokens: 908 };
      return (req.body as { stream?: boolean })?.stream ? ok(req) : { status: 200, json: body };
    };
    behaviour.alpha = behaviour.beta = costly;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 ? key.key : second.key, { max_tokens: 1_000 }))).finally(() => {
      behaviour.alpha = behaviour.beta = ok;
    });
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
    const refusal = await results[statuses.indexOf(402)]!.json();
    expect(refusal.error.metadata).toMatchObject({ reason: 'member_limit', member_limit: 0.01, limit_reset: 'daily' });
    await Promise.all(results.map((r) => (r.bodyUsed ? null : r.body?.cancel())));
    await settled();
    const m = await prisma.membership.findUniqueOrThrow({ where: { organizationId_userId: { organizationId: org.id, userId: member.user.id } } });
    const spent = await prisma.usageRecord.aggregate({ where: { accountId: org.id }, _sum: { costMicros: true } });
    expect(spent._sum.costMicros!).toBeLessThanOrEqual(limitMicros);
    expect(m.windowSpentMicros).toBe(spent._sum.costMicros); // every hold replaced by its charge
    const reservations = await prisma.reservation.findMany({ where: { accountId: org.id }, select: { membershipId: true } });
    expect(reservations.every((r) => r.membershipId === m.id)).toBe(true);
  });

  it('a disabled key is refused with 403 on the gateway, and works again once enabled', async () => {
    const { key } = await organization();
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: key.id }, data: { disabledAt: new Date() } });
    const refused = await chat(key.key);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.metadata).toMatchObject({ reason: 'key_disabled' });
    await prisma.apiKey.update({ where: { id: key.id }, data: { disabledAt: null } });
    expect((await chat(key.key)).status).toBe(200);
  });

  it('a suspended user’s key is refused with 403 on the gateway (next request), and works again once restored', async () => {
    const { key, member } = await organization();
    const prisma = await db();
    expect((await chat(key.key)).status).toBe(200); // warm: would be dispatched early
    await prisma.user.update({ where: { id: member.user.id }, data: { suspendedAt: new Date(), suspendedReason: 'test' } });
    for (const stream of [false, true]) {
      const refused = await chat(key.key, { stream });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.metadata).toMatchObject({ reason: 'user_suspended' });
    }
    await prisma.user.update({ where: { id: member.user.id }, data: { suspendedAt: null, suspendedReason: null } });
    expect((await chat(key.key)).status).toBe(200);
  });

  it('a key’s own rate_limit_rpm applies (lowered: at once), and rate_limit_tpm counts tokens', async () => {
    const { key } = await organization();
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: key.id }, data: { rateLimitRpm: 2 } });
    expect((await chat(key.key)).status).toBe(200);
    expect((await chat(key.key)).status).toBe(200);
    const third = await chat(key.key);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBeTruthy();
    expect((await third.json()).error.metadata).toMatchObject({ limit_per_minute: 2 });
    await settled();
    expect(await prisma.reservation.count({ where: { apiKeyId: key.id, status: 'ACTIVE' } })).toBe(0); // the refused one was released

    const { key: tokens } = await organization();
    await prisma.apiKey.update({ where: { id: tokens.id }, data: { rateLimitTpm: 10 } });
    expect((await chat(tokens.key)).status).toBe(200); // the fixture's answer uses more than 10 tokens
    await settled();
    const limited = await chat(tokens.key);
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.metadata).toMatchObject({ tokens_per_minute: 10 });
  });

  /** Chats until the answer is not a 429 or `ms` passed (200 ms apart); returns the last status. */
  async function untilNot429(key: string, ms = 1_500): Promise<number> {
    const since = Date.now();
    let status = 429;
    while (status === 429 && Date.now() - since < ms) {
      status = (await chat(key)).status;
      if (status === 429) await new Promise((r) => setTimeout(r, 200));
    }
    return status;
  }

  it('a key’s raised or removed rate_limit_rpm applies within about a second while it is throttled; lowered, at once', async () => {
    const { key, member } = await organization();
    const prisma = await db();
    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_rpm: 2 } });
    expect((await chat(key.key)).status).toBe(200);
    expect((await chat(key.key)).status).toBe(200);
    expect((await chat(key.key)).status).toBe(429);
    // Throttled at an unchanged limit: at most about one admission statement a second (the rest refused on memory).
    await settled();
    const reservations = await prisma.reservation.count({ where: { apiKeyId: key.id } });
    const burst = await Promise.all(Array.from({ length: 20 }, () => chat(key.key)));
    expect(burst.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect((await prisma.reservation.count({ where: { apiKeyId: key.id } })) - reservations).toBeLessThanOrEqual(2);

    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_rpm: 100 } });
    expect(await untilNot429(key.key)).toBe(200);
    expect((await chat(key.key)).status).toBe(200); // learned: no longer refused on memory

    // Lowered again: at once; then removed (the server's default applies) while throttled.
    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_rpm: 2 } });
    const lowered = await chat(key.key);
    expect(lowered.status).toBe(429);
    expect((await lowered.json()).error.metadata).toMatchObject({ limit_per_minute: 2 });
    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_rpm: null } });
    expect(await untilNot429(key.key)).toBe(200);
    await settled();
    expect(await prisma.reservation.count({ where: { apiKeyId: key.id, status: 'ACTIVE' } })).toBe(0);
    // The 429s that reached admission were settled as refusals, at no charge.
    const refused = await prisma.usageRecord.findMany({ where: { apiKeyId: key.id, status: { not: 'SUCCESS' } }, select: { status: true, httpStatus: true, errorCode: true, costMicros: true } });
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toEqual({ status: 'REFUSED', httpStatus: 429, errorCode: 'rate_limited', costMicros: 0n });
  });

  it('a key’s raised or removed rate_limit_tpm applies within about a second while it is throttled; lowered, at once', async () => {
    const { key, member } = await organization();
    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_tpm: 10 } });
    expect((await chat(key.key)).status).toBe(200); // the fixture's answer uses more than 10 tokens
    await settled();
    const limited = await chat(key.key);
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.metadata).toMatchObject({ tokens_per_minute: 10 });

    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_tpm: 100_000 } });
    expect(await untilNot429(key.key)).toBe(200);
    expect((await chat(key.key)).status).toBe(200);
    await settled();

    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_tpm: 20 } });
    const lowered = await chat(key.key);
    expect(lowered.status).toBe(429);
    expect((await lowered.json()).error.metadata).toMatchObject({ tokens_per_minute: 20 });
    await updateApiKey({ userId: member.user.id, keyId: key.id, input: { rate_limit_tpm: null } });
    expect(await untilNot429(key.key)).toBe(200);
    await settled();
    expect(await (await db()).reservation.count({ where: { apiKeyId: key.id, status: 'ACTIVE' } })).toBe(0);
  });

  it('BYOK: the account’s key reaches the provider, the operator’s never; the charge is the fee; the record says byok', async () => {
    const { org, key } = await organization();
    const prisma = await db();
    await prisma.providerKey.create({ data: { accountId: org.id, provider: 'alpha', encryptedKey: encryptSecret('sk-customer-alpha'), hint: 'sk-c…lpha' } });
    const seen: string[] = [];
    behaviour.alpha = (req) => {
      seen.push(String(req.headers.authorization));
      return ok(req);
    };
    try {
      const res = await chat(key.key);
      expect(res.status).toBe(200);
      const body = await res.json();
      const stream = await chat(key.key, { stream: true });
      const { chunks } = await readSse(stream);
      expect(seen).toEqual(['Bearer sk-customer-alpha', 'Bearer sk-customer-alpha']);
      await settled();
      const record = await prisma.usageRecord.findUniqueOrThrow({ where: { id: body.id } });
      expect(record.byok).toBe(true);
      expect(record.provider).toBe('alpha');
      // Fee = 5 % of the list price, rounded up to the micro-dollar; usage.cost says the same.
      const list = BigInt(record.promptTokens) * 1n + BigInt(record.completionTokens) * 2n; // $1 and $2 per million tokens
      expect(record.costMicros).toBe((list * 500n + 9_999n) / 10_000n);
      expect(Math.round(body.usage.cost * 1e6)).toBe(Number(record.costMicros));
      expect(chunks.at(-1).usage.cost).toBeDefined();

      // The provider refuses the account's key: 403 with byok, no retry with the operator's key.
      seen.length = 0;
      behaviour.alpha = (req) => {
        seen.push(String(req.headers.authorization));
        return { status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } };
      };
      const betaBefore = upstreams.beta!.requests.length;
      const refused = await chat(key.key);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.metadata).toMatchObject({ byok: true, provider: 'alpha', upstream_status: 401 });
      expect(seen).toEqual(['Bearer sk-customer-alpha']);
      expect(upstreams.beta!.requests.length).toBe(betaBefore);
    } finally {
      behaviour.alpha = ok;
    }
  });

  it('BYOK with no balance: a fee of 0 % of a request fits, whatever the list price', async () => {
    const { org, key } = await organization({}, 0);
    const prisma = await db();
    // Only beta has the account's key; with allowed_providers the list-price endpoint (alpha) is out.
    await prisma.organization.update({ where: { id: org.id }, data: { settings: { allowed_providers: ['beta'] } } });
    await prisma.providerKey.create({ data: { accountId: org.id, provider: 'beta', encryptedKey: encryptSecret('sk-customer-beta'), hint: 'sk-c…beta' } });
    const free = await h.renewRuntime({ routing: { config: config(), database: false }, byokFeeBps: 0 });
    try {
      const res = await chat(key.key);
      expect(res.status).toBe(200);
      expect((await res.json()).usage.cost).toBe(0);
    } finally {
      await h.renewRuntime({ routing: { config: config(), database: false }, byokFeeBps: FEE_BPS });
      expect(free).not.toBe(h.runtime);
    }
  });
});

describe('byokCharge', () => {
  it('rounds the fee up to the micro-dollar and is 0 at 0 %', async () => {
    const { byokCharge } = await import('./account-policy');
    expect(byokCharge(1_000n, 500)).toBe(50n);
    expect(byokCharge(1_001n, 500)).toBe(51n);
    expect(byokCharge(1_000n, 0)).toBe(0n);
    expect(byokCharge(0n, 10_000)).toBe(0n);
  });
});
