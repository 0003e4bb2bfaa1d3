// The operators' console procedures (server/trpc/routers/admin.ts) and the REST routes added with them
// (GET /admin/users/{id}, /admin/audit-log, /admin/key-health): a user's accounts with balances and the
// adjustment that lands there, the audit log of every account, the enable switches and live key health.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestOrganization } from '@/test/factories';
import { createCaller } from './root';

afterAll(() => processRuntime().close());

describeEachDatabase('tRPC admin router', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let operator: TestUser;
  let target: TestUser;
  let orgId: string;
  const asOperator = () => createCaller({ principal: { kind: 'session', userId: operator.id, accountId: operator.personalAccountId } }).admin;

  beforeAll(async () => {
    api = await startApiServer();
    [operator, target] = await Promise.all([testUser('operator'), testUser('target')]);
    await setOperator({ email: operator.email, operator: true });
    orgId = (await createTestOrganization({ name: 'Target Org', usd: 4, members: [{ userId: target.id, role: 'BILLING' }] })).id;
  });
  afterAll(() => api?.close());

  it('a user with every account, its balance and its latest credit movements; an adjustment lands on the right one', async () => {
    const admin = asOperator();
    const before = await admin.user({ id: target.id });
    expect(before.data.accounts.map((a) => [a.id, a.kind, a.name, a.role, a.balance.balance, a.recent_entries.length])).toEqual([
      [target.personalAccountId, 'personal', 'Personal', 'owner', 0, 0],
      [orgId, 'organization', 'Target Org', 'billing', 4, expect.any(Number)],
    ]);

    const out = await admin.adjust({ account_id: orgId, amount_usd: -1.25, reason: 'duplicate grant' });
    expect(out.data.entry).toMatchObject({ kind: 'adjustment', amount: -1.25, reason: 'duplicate grant', balance_after: 2.75 });
    const after = await admin.user({ id: target.id });
    const org = after.data.accounts.find((a) => a.id === orgId)!;
    expect(org.balance).toMatchObject({ balance: 2.75, paid: 2.75 });
    expect(org.recent_entries[0]).toMatchObject({ kind: 'adjustment', amount: -1.25, amount_micros: '-1250000', balance_after: 2.75, note: 'duplicate grant', actor_user_id: operator.id });
    expect(after.data.accounts[0].recent_entries).toEqual([]);
    await expect(admin.adjust({ account_id: orgId, amount_usd: 1, reason: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(admin.user({ id: 'nobody' })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // The same through REST.
    const rest = await call('GET', `/admin/users/${target.id}`, operator.token);
    expect(rest.status).toBe(200);
    expect(rest.body.data.accounts[1]).toMatchObject({ id: orgId, balance: { balance: 2.75 }, recent_entries: [{ kind: 'adjustment', note: 'duplicate grant' }, ...org.recent_entries.slice(1).map(() => expect.anything())] });
    expect((await call('GET', '/admin/users/nobody', operator.token)).status).toBe(404);
  });

  it('suspend and restore through the console, with the reason; the audit log of every account shows them, filterable by account and action', async () => {
    const admin = asOperator();
    await expect(admin.suspend({ id: target.id, reason: ' ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await admin.suspend({ id: target.id, reason: 'chargeback' })).data).toMatchObject({ suspended_reason: 'chargeback' });
    expect((await admin.restore({ id: target.id })).data).toMatchObject({ suspended_at: null });

    const all = await admin.auditLog({ action: 'user.' });
    const mine = all.data.filter((e) => e.target.id === target.id);
    expect(mine.map((e) => [e.action, e.account_id, e.actor.user_id, e.actor.via])).toEqual([
      ['user.restore', target.personalAccountId, operator.id, 'console'],
      ['user.suspend', target.personalAccountId, operator.id, 'console'],
    ]);
    // Every account: the organization's adjustment and the personal account's suspension in one list.
    const everything = await admin.auditLog({ limit: 200 });
    expect(everything.data.some((e) => e.account_id === orgId && e.action === 'account.adjustment')).toBe(true);
    expect(everything.data.some((e) => e.account_id === target.personalAccountId && e.action === 'user.suspend')).toBe(true);
    const onlyOrg = await admin.auditLog({ account_id: orgId });
    expect(onlyOrg.data.length).toBeGreaterThan(0);
    expect(onlyOrg.data.every((e) => e.account_id === orgId)).toBe(true);
    const paged = await admin.auditLog({ limit: 1, action: 'user.' });
    expect(paged.next_cursor).toEqual(expect.any(String));
    const next = await admin.auditLog({ limit: 1, action: 'user.', cursor: paged.next_cursor! });
    expect(next.data[0].id).not.toBe(paged.data[0].id);

    const rest = await call('GET', `/admin/audit-log?account_id=${target.personalAccountId}&action=user.suspend`, operator.token);
    expect(rest.status).toBe(200);
    expect(rest.body.data.map((e: { action: string }) => e.action)).toEqual(['user.suspend']);
    expect((await call('GET', '/admin/audit-log?action=Bad Action', operator.token)).status).toBe(400);
  });

  it('models and providers with live key health; a model is disabled and enabled again through the admin entry', async () => {
    const admin = asOperator();
    const models = await admin.models();
    // The tests' SWITCHBOARD_CONFIG (test/fixtures/priced-echo.yaml) defines switchboard/echo: read-only here.
    expect(models.data.find((m) => m.id === 'switchboard/echo')).toMatchObject({ source: 'file', read_only: true });
    await expect(admin.setModelEnabled({ id: 'switchboard/echo', enabled: false })).rejects.toMatchObject({ code: 'CONFLICT' });
    const builtin = models.data.find((m) => m.source === 'builtin' && m.enabled)!;
    expect(builtin).toBeDefined();
    const providers = await admin.providers();
    expect(providers.data.find((p) => p.id === 'echo')).toMatchObject({ enabled: true });

    const off = await admin.setModelEnabled({ id: builtin.id, enabled: false });
    expect(off.data).toMatchObject({ id: builtin.id, enabled: false, source: 'admin' });
    expect((await admin.models()).data.find((m) => m.id === builtin.id)).toMatchObject({ enabled: false, source: 'admin' });
    const on = await admin.setModelEnabled({ id: builtin.id, enabled: true });
    expect(on.data).toMatchObject({ id: builtin.id, enabled: true });
    // A builtin provider becomes an operator's entry reading the same key variable; deleting it brings the builtin back.
    const builtinProvider = providers.data.find((p) => p.source === 'builtin' && p.id !== 'echo')!;
    expect(builtinProvider).toBeDefined();
    expect((await admin.setProviderEnabled({ id: builtinProvider.id, enabled: false })).data).toMatchObject({ id: builtinProvider.id, source: 'admin', enabled: false });
    expect((await admin.providers()).data.find((p) => p.id === builtinProvider.id)).toMatchObject({ source: 'admin', enabled: false });
    expect(await admin.deleteProvider({ id: builtinProvider.id })).toMatchObject({ deleted: true, current: { id: builtinProvider.id, source: 'builtin', enabled: true } });
    await expect(admin.setModelEnabled({ id: 'no/such-model', enabled: false })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const health = await admin.keyHealth();
    expect(health.source).toBe('server');
    expect(health.providers.map((p) => p.id)).toEqual(expect.arrayContaining(providers.data.filter((p) => p.active).map((p) => p.id)));
    const rest = await call('GET', '/admin/key-health', operator.token);
    expect(rest.status).toBe(200);
    expect(rest.body.providers.map((p: { id: string }) => p.id)).toEqual(health.providers.map((p) => p.id));
  });
});
