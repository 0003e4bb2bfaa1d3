// The operators' console API over HTTP: user search, suspend/restore (the suspended user's keys, tokens and
// password sign-in refused on the next request), manual adjustments through the ledger, instance usage.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { verifyCredentials } from '@/server/auth/verify-credentials';
import { db } from '@/server/db';
import { reserveCredits } from '@/server/ledger/reserve';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization } from '@/test/factories';
import { sessionPrincipal } from '@/server/console/session-principal';
import { createUser } from '@/server/users/create-user';

describeEachDatabase('admin console API', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let operator: TestUser;
  let stranger: TestUser;
  let strangerKey: string;
  let target: TestUser;
  let targetKey: string;
  let orgId: string;
  const tag = `zq${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    api = await startApiServer();
    [operator, stranger, target] = await Promise.all([testUser('operator'), testUser('stranger'), testUser(`Target-${tag}`, `${tag}-target@example.com`)]);
    await setOperator({ email: operator.email, operator: true });
    const org = await createTestOrganization({ name: `Org ${tag}`, members: [{ userId: target.id, role: 'ADMIN' }] });
    orgId = org.id;
    strangerKey = (await createTestKey(stranger.id, stranger.personalAccountId)).key;
    targetKey = (await createTestKey(target.id, target.personalAccountId)).key;
  });
  afterAll(() => api?.close());

  const routes = (): [string, string, unknown?][] => [
    ['GET', '/admin/users'],
    ['POST', `/admin/users/${target.id}/suspend`, { reason: 'x' }],
    ['POST', `/admin/users/${target.id}/restore`],
    ['POST', `/admin/accounts/${target.personalAccountId}/adjustments`, { amount_usd: 1, reason: 'x' }],
    ['GET', '/admin/usage'],
  ];

  it('every route: 403 for a non-operator (token or API key), 401 without a credential; nothing changes', async () => {
    for (const [method, route, body] of routes()) {
      for (const token of [stranger.token, strangerKey]) {
        const res = await call(method, route, token, body);
        expect(res.status, `${method} ${route}`).toBe(403);
        expect(res.body.error.message).toMatch(/^Operators only/);
      }
      expect((await call(method, route, null, body)).status).toBe(401);
    }
    const u = await (await db()).user.findUniqueOrThrow({ where: { id: target.id }, include: { personalAccount: true } });
    expect(u.suspendedAt).toBeNull();
    expect(u.personalAccount.paidMicros).toBe(0n);
  });

  it('searches users by email or name, any case, with balance and organizations, cursor-paginated', async () => {
    const res = await call('GET', `/admin/users?q=${tag.toUpperCase()}`, operator.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: target.id, email: target.email, name: `Target-${tag}`, created_at: expect.any(String), is_operator: false,
        suspended_at: null, suspended_reason: null, personal_account_id: target.personalAccountId,
        personal_balance: 0, personal_balance_micros: '0', organizations: [{ id: orgId, name: `Org ${tag}`, role: 'admin' }],
      },
    ]);
    const byName = await call('GET', `/admin/users?q=target-${tag}`, operator.token);
    expect(byName.body.data.map((u: { id: string }) => u.id)).toEqual([target.id]);
    await Promise.all([1, 2, 3].map((i) => createUser({ email: `${tag}-page${i}@example.com`, name: 'p' })));
    const first = await call('GET', `/admin/users?q=${tag}&limit=2`, operator.token);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call('GET', `/admin/users?q=${tag}&limit=2&cursor=${first.body.next_cursor}`, operator.token);
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
    const ids = [...first.body.data, ...second.body.data].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(4);
    expect((await call('GET', '/admin/users?limit=101', operator.token)).status).toBe(400);
  });

  it('search: %, _ and \\ in q are the characters themselves, not LIKE wildcards', async () => {
    const [percent, underscore, backslash] = await Promise.all([
      createUser({ email: `${tag}-pct@example.com`, name: `${tag}%off` }),
      createUser({ email: `${tag}-und@example.com`, name: `${tag}_under` }),
      createUser({ email: `${tag}-bsl@example.com`, name: `${tag}\\slash` }),
    ]);
    const ids = async (q: string) => (await call('GET', `/admin/users?q=${encodeURIComponent(q)}&limit=100`, operator.token)).body.data.map((u: { id: string }) => u.id);
    expect(await ids(`${tag}%`)).toEqual([percent.id]);
    expect(await ids(`${tag}_`)).toEqual([underscore.id]);
    expect(await ids(`${tag}\\`)).toEqual([backslash.id]);
    expect(await ids(`${tag}\\%`)).toEqual([]);
    // A bare % or _ finds only users whose email or name holds it.
    for (const q of ['%', '_']) {
      const found = (await call('GET', `/admin/users?q=${encodeURIComponent(q)}&limit=100`, operator.token)).body.data as { email: string; name: string }[];
      expect(found.length, q).toBeGreaterThan(0);
      for (const u of found) expect(`${u.email} ${u.name}`, q).toContain(q);
    }
  });

  it('suspend: the next request of their key and token is a 403 user_suspended, sign-in is refused; restore lifts it; both audited', async () => {
    const password = 'correct horse battery staple';
    const { hashPassword } = await import('@/server/auth/password');
    await (await db()).user.update({ where: { id: target.id }, data: { passwordHash: await hashPassword(password) } });
    expect((await call('GET', '/api-keys', targetKey)).status).toBe(200);
    expect(await verifyCredentials({ email: target.email, password, ip: '10.0.0.9' })).not.toBeNull();

    expect((await call('POST', `/admin/users/${target.id}/suspend`, operator.token, {})).status).toBe(400); // reason required
    expect((await call('POST', `/admin/users/${operator.id}/suspend`, operator.token, { reason: 'me' })).status).toBe(400);
    expect((await call('POST', `/admin/users/nope/suspend`, operator.token, { reason: 'x' })).status).toBe(404);
    const suspended = await call('POST', `/admin/users/${target.id}/suspend`, operator.token, { reason: 'fraud check' });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toMatchObject({ id: target.id, suspended_at: expect.any(String), suspended_reason: 'fraud check' });

    for (const token of [targetKey, target.token]) {
      const res = await call('GET', '/api-keys', token);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 403, message: expect.stringMatching(/^This account is suspended/), metadata: { reason: 'user_suspended' } });
    }
    expect(await verifyCredentials({ email: target.email, password, ip: '10.0.0.9' })).toBeNull();
    expect(await sessionPrincipal({ userId: target.id })).toBeNull(); // a console session signed in before: as signed out

    const restored = await call('POST', `/admin/users/${target.id}/restore`, operator.token);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ suspended_at: null, suspended_reason: null });
    expect((await call('GET', '/api-keys', targetKey)).status).toBe(200);
    expect((await call('GET', '/api-keys', target.token)).status).toBe(200);
    expect(await sessionPrincipal({ userId: target.id })).toMatchObject({ kind: 'session', userId: target.id });

    const audit = await (await db()).auditLogEntry.findMany({ where: { accountId: target.personalAccountId, targetType: 'user' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.action, a.targetId, a.actorUserId])).toEqual([
      ['user.suspend', target.id, operator.id],
      ['user.restore', target.id, operator.id],
    ]);
    expect(audit[0].after).toMatchObject({ suspended_reason: 'fraud check' });
    expect(audit[1].before).toMatchObject({ suspended_reason: 'fraud check' });
  });

  it('adjustments: one ADJUSTMENT entry per call, micro-dollar exact, audited; a debit below zero paid credit is a 409', async () => {
    const account = target.personalAccountId;
    const path = `/admin/accounts/${account}/adjustments`;
    for (const body of [{ amount_usd: 0, reason: 'x' }, { amount_usd: 1.0000001, reason: 'x' }, { amount_usd: 1 }, { amount_usd: 1, reason: '' }, { amount_usd: 1, reason: 'x'.repeat(501) }]) {
      expect((await call('POST', path, operator.token, body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect((await call('POST', '/admin/accounts/nope/adjustments', operator.token, { amount_usd: 1, reason: 'x' })).status).toBe(404);

    const credit = await call('POST', path, operator.token, { amount_usd: 2.500001, reason: 'refund of a failed batch' });
    expect(credit.status).toBe(201);
    expect(credit.body.data.entry).toMatchObject({ kind: 'adjustment', amount: 2.500001, amount_micros: '2500001', reason: 'refund of a failed batch', balance_after: 2.500001 });
    expect(credit.body.data.balance).toMatchObject({ account_id: account, balance: 2.500001, paid: 2.500001, balance_micros: '2500001' });

    const tooMuch = await call('POST', path, operator.token, { amount_usd: -2.500002, reason: 'claw back' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.metadata).toMatchObject({ reason: 'insufficient_paid_credit' });

    const debit = await call('POST', path, operator.token, { amount_usd: -0.5, reason: 'claw back' });
    expect(debit.status).toBe(201);
    expect(debit.body.data.balance).toMatchObject({ balance_micros: '2000001' });

    const prisma = await db();
    const entries = await prisma.ledgerEntry.findMany({ where: { accountId: account }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.kind, e.paidMicros, e.note, e.actorUserId, e.idempotencyKey.startsWith('adjustment:')])).toEqual([
      ['ADJUSTMENT', 2_500_001n, 'refund of a failed batch', operator.id, true],
      ['ADJUSTMENT', -500_000n, 'claw back', operator.id, true],
    ]);
    expect((await prisma.account.findUniqueOrThrow({ where: { id: account } })).paidMicros).toBe(2_000_001n);
    const audit = await prisma.auditLogEntry.findMany({ where: { accountId: account, action: 'account.adjustment' }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.targetId, a.actorUserId])).toEqual(entries.map((e) => [e.id, operator.id]));
  });

  it("a deleted organization's account takes no adjustment (409 organization_deleted), credit or debit; a live one does", async () => {
    const owner = await testUser('doomed-owner');
    const doomed = await createTestOrganization({ name: `Doomed ${tag}`, members: [{ userId: owner.id, role: 'OWNER' }] });
    const path = `/admin/accounts/${doomed.id}/adjustments`;
    expect((await call('POST', path, operator.token, { amount_usd: 3, reason: 'goodwill' })).status).toBe(201);
    expect((await call('DELETE', `/organizations/${doomed.id}?force=true`, owner.token)).status).toBe(200);

    const prisma = await db();
    const before = await prisma.account.findUniqueOrThrow({ where: { id: doomed.id } });
    for (const amount_usd of [1, -1]) {
      const res = await call('POST', path, operator.token, { amount_usd, reason: 'after the fact' });
      expect(res.status, String(amount_usd)).toBe(409);
      expect(res.body.error).toMatchObject({ message: expect.stringMatching(/organization that was deleted/), metadata: { reason: 'organization_deleted', account_id: doomed.id } });
    }
    const after = await prisma.account.findUniqueOrThrow({ where: { id: doomed.id } });
    expect([after.paidMicros, after.promoMicros]).toEqual([before.paidMicros, before.promoMicros]);
    expect(await prisma.ledgerEntry.count({ where: { accountId: doomed.id, kind: 'ADJUSTMENT' } })).toBe(1);
    expect((await call('POST', `/admin/accounts/${orgId}/adjustments`, operator.token, { amount_usd: 1, reason: 'live organization' })).status).toBe(201);
  });

  it('a debit may not take what requests in flight have reserved: 409 for the whole paid balance, 201 for what is free', async () => {
    const held = await testUser('held');
    const path = `/admin/accounts/${held.personalAccountId}/adjustments`;
    expect((await call('POST', path, operator.token, { amount_usd: 0.28, reason: 'top up' })).status).toBe(201);
    // A request in flight holds 0.173 USD of it, as the gateway's reservation does.
    await reserveCredits({ accountId: held.personalAccountId, generationId: `gen-${randomUUID()}`, amountMicros: 173_000n, userId: held.id });

    const all = await call('POST', path, operator.token, { amount_usd: -0.28, reason: 'claw back' });
    expect(all.status).toBe(409);
    expect(all.body.error.metadata).toMatchObject({ reason: 'insufficient_paid_credit', paid: 0.28, reserved: 0.173, debitable: 0.107 });
    expect(all.body.error.message).toMatch(/in flight.*0\.173 USD.*0\.107 USD can be debited now/);
    expect((await call('POST', path, operator.token, { amount_usd: -0.107001, reason: 'claw back' })).status).toBe(409);

    const free = await call('POST', path, operator.token, { amount_usd: -0.107, reason: 'claw back' });
    expect(free.status).toBe(201);
    expect(free.body.data.balance).toMatchObject({ paid: 0.173 });
    const account = await (await db()).account.findUniqueOrThrow({ where: { id: held.personalAccountId } });
    expect([account.paidMicros, account.reservedMicros]).toEqual([173_000n, 173_000n]);
  });

  // API keys at the gateway are admitted by the one-statement reservation (server/ledger/reserve.ts), which
  // reads User."suspendedAt" in the lead's change; auth tokens go through the bearer lookup tested here.
  it("a suspended user's account token is refused by the gateway too, with credit on the account", async () => {
    const chat = () => call('POST', '/chat/completions', target.token, { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, stream: false });
    expect((await chat()).status).toBe(200);
    expect((await call('POST', `/admin/users/${target.id}/suspend`, operator.token, { reason: 'again' })).status).toBe(200);
    const refused = await chat();
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ reason: 'user_suspended' });
    expect((await call('POST', `/admin/users/${target.id}/restore`, operator.token)).status).toBe(200);
    expect((await chat()).status).toBe(200);
  });

  it('usage: requests, tokens, charged, provider cost (reported, else list price, BYOK free) and margin, grouped', async () => {
    const prisma = await db();
    const at = new Date('2020-03-10T12:00:00Z');
    const row = (model: string, provider: string, accountId: string, cost: bigint, extra: { byok?: boolean; providerCostMicros?: bigint; unbilledMicros?: bigint } = {}) => ({
      id: `gen-${randomUUID()}`, accountId, model, provider, promptTokens: 100, completionTokens: 10, costMicros: cost, status: 'SUCCESS' as const, createdAt: at, ...extra,
    });
    const a = target.personalAccountId;
    const b = stranger.personalAccountId;
    await prisma.usageRecord.createMany({
      data: [
        row(`${tag}/m1`, `${tag}-p1`, a, 1_000n, { providerCostMicros: 600n }), // reported: cost 600
        row(`${tag}/m1`, `${tag}-p2`, b, 2_000n, { unbilledMicros: 50n }), // list price: 2 050
        row(`${tag}/m2`, `${tag}-p2`, a, 300n, { byok: true }), // BYOK: costs us nothing
        { ...row(`${tag}/m2`, `${tag}-p1`, a, 999n), createdAt: new Date('2020-04-01T00:00:00Z') }, // outside the window
      ],
    });
    const range = 'from=2020-03-01T00:00:00Z&to=2020-04-01T00:00:00Z';
    const byModel = await call('GET', `/admin/usage?${range}&group_by=model`, operator.token);
    expect(byModel.status).toBe(200);
    expect(byModel.body.data).toEqual([
      { model: `${tag}/m1`, requests: 2, prompt_tokens: 200, completion_tokens: 20, total_tokens: 220, charged: 0.003, charged_micros: '3000', provider_cost: 0.00265, provider_cost_micros: '2650', margin: 0.00035, margin_micros: '350' },
      { model: `${tag}/m2`, requests: 1, prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, charged: 0.0003, charged_micros: '300', provider_cost: 0, provider_cost_micros: '0', margin: 0.0003, margin_micros: '300' },
    ]);
    expect(byModel.body.totals).toMatchObject({ requests: 3, charged_micros: '3300', provider_cost_micros: '2650', margin_micros: '650' });

    const byProvider = await call('GET', `/admin/usage?${range}&group_by=provider`, operator.token);
    expect(byProvider.body.data.map((r: Record<string, unknown>) => [r.provider, r.charged_micros, r.provider_cost_micros, r.margin_micros])).toEqual([
      [`${tag}-p2`, '2300', '2050', '250'],
      [`${tag}-p1`, '1000', '600', '400'],
    ]);
    const byAccount = await call('GET', `/admin/usage?${range}&group_by=account`, operator.token);
    expect(byAccount.body.data.map((r: Record<string, unknown>) => [r.account, r.requests, r.margin_micros])).toEqual([
      [b, 1, '-50'],
      [a, 2, '700'],
    ]);
    for (const bad of ['group_by=user', 'from=yesterday', 'from=2020-04-01T00:00:00Z&to=2020-03-01T00:00:00Z']) {
      expect((await call('GET', `/admin/usage?${bad}`, operator.token)).status, bad).toBe(400);
    }
    // An early `to` alone: the default `from` (30 days before) stops at 0001-01-01 instead of a 500 on year 0.
    const early = await call('GET', '/admin/usage?to=0001-01-02', operator.token);
    expect(early.status).toBe(200);
    expect(early.body.totals).toMatchObject({ requests: 0 });
    expect((await call('GET', '/admin/usage?to=0001-01-01', operator.token)).status).toBe(400);
  });
});
