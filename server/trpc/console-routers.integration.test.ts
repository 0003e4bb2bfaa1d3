// The console's routers through createCaller: the active account drives every procedure, roles are
// enforced by the same authorization step as REST, and the results are the services' DTOs.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { expect, it } from 'vitest';
import { organizationWorld, testUser, type TestUser } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { insertUsage } from '@/test/factories';
import { appRouter, createCaller } from './root';

const callerFor = (u: Pick<TestUser, 'id' | 'personalAccountId'>, accountId = u.personalAccountId) =>
  createCaller({ principal: { kind: 'session', userId: u.id, accountId }, origin: 'https://console.example' });

describeEachDatabase('tRPC console routers', () => {
  it('reports the session with role-aware permissions and switches the active account', async () => {
    const w = await organizationWorld('Switchers');
    const member = callerFor(w.member);
    const before = await member.account.session();
    expect(before.active).toMatchObject({ id: w.member.personalAccountId, kind: 'personal', role: 'owner' });
    expect(before.accounts.map((a) => a.name)).toEqual(['Personal', 'Switchers']);
    expect(before.active.permissions).toContain('billing:manage');

    await member.account.setActive({ account_id: w.organizationId });
    const after = await callerFor(w.member, w.organizationId).account.session();
    expect(after.active).toMatchObject({ id: w.organizationId, kind: 'organization', role: 'member' });
    expect(after.active.permissions).toContain('keys:create');
    expect(after.active.permissions).not.toContain('members:manage');
    expect(after.active.permissions).not.toContain('billing:read');

    await expect(callerFor(w.stranger).account.setActive({ account_id: w.organizationId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('creates an organization and keys on the active account; admins see every key, members their own', async () => {
    const owner = await testUser('owner');
    const org = await callerFor(owner).account.createOrganization({ name: 'Key Makers' });
    expect(org).toMatchObject({ name: 'Key Makers', role: 'owner' });
    const member = await testUser('member');
    const { addMember } = await import('@/test/accounts');
    await addMember(org.id, member.id, 'MEMBER');

    const ownerInOrg = callerFor(owner, org.id);
    const memberInOrg = callerFor(member, org.id);
    const ownerKey = await ownerInOrg.apiKeys.create({ name: 'Owner key', credit_limit: 5, limit_reset: 'monthly', allowed_models: ['switchboard/echo'] });
    expect(ownerKey.apiKey).toMatchObject({ account_id: org.id, credit_limit: 5, limit_reset: 'monthly', allowed_models: ['switchboard/echo'] });
    const memberKey = await memberInOrg.apiKeys.create({ name: 'Member key' });
    expect(memberKey.apiKey.account_id).toBe(org.id);

    expect((await ownerInOrg.apiKeys.list()).map((k) => k.name).sort()).toEqual(['Member key', 'Owner key']);
    expect((await memberInOrg.apiKeys.list()).map((k) => k.name)).toEqual(['Member key']);
    // The personal account's list holds only personal keys.
    expect((await callerFor(owner).apiKeys.list()).some((k) => k.account_id === org.id)).toBe(false);
    // A member may not delete someone else's key; the owner may.
    await expect(memberInOrg.apiKeys.delete({ id: ownerKey.apiKey.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await ownerInOrg.apiKeys.delete({ id: memberKey.apiKey.id });
    expect((await memberInOrg.apiKeys.list())).toEqual([]);
  });

  it('validates input with the service schema and sends each issue with its path over the wire', async () => {
    const u = await testUser('validate');
    await expect(callerFor(u).apiKeys.create({ name: '  ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // Through the fetch adapter, as the browser sees it: the errorFormatter's appError carries the issues.
    const res = await fetchRequestHandler({
      endpoint: '/api/trpc',
      req: new Request('http://localhost/api/trpc/apiKeys.create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: '  ' }) }),
      router: appRouter,
      createContext: () => ({ principal: { kind: 'session' as const, userId: u.id, accountId: u.personalAccountId } }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.message).toBe('name: Name is required');
    expect(body.error.data.appError).toMatchObject({ code: 400, metadata: { error_type: 'bad_request', issues: [{ path: 'name', message: 'Name is required' }] } });
    expect(body.error.data.stack).toBeUndefined();
  });

  it('manages members, roles and invites by role, and refuses personal accounts', async () => {
    const w = await organizationWorld('Team');
    const owner = callerFor(w.owner, w.organizationId);
    const admin = callerFor(w.admin, w.organizationId);
    const billing = callerFor(w.billing, w.organizationId);
    const member = callerFor(w.member, w.organizationId);

    expect((await member.organization.members()).map((m) => m.role)).toEqual(['owner', 'admin', 'billing', 'member']);
    expect((await admin.organization.roles()).filter((r) => r.assignable).map((r) => r.role)).toEqual(['admin', 'billing', 'member']);

    const sent = await admin.invites.create({ emails: ['new@example.com', w.member.email], role: 'member' });
    expect(sent.invited).toBe(1);
    const invited = sent.data.find((r) => r.email === 'new@example.com');
    expect(invited).toMatchObject({ status: 'invited' });
    expect(invited && 'link' in invited ? invited.link : '').toMatch(/^https:\/\/console\.example\/invite\//);
    expect(sent.data.find((r) => r.email === w.member.email)).toMatchObject({ status: 'already_member' });
    expect(await billing.invites.count()).toEqual({ pending: 1 });
    await expect(member.invites.list()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(billing.invites.create({ emails: ['x@example.com'] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const [pending] = await owner.invites.list();
    await owner.invites.revoke({ id: pending.id });
    expect(await owner.invites.count()).toEqual({ pending: 0 });

    await expect(member.organization.changeRole({ member_id: w.billing.id, role: 'member' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await admin.organization.changeRole({ member_id: w.member.id, role: 'billing' })).toMatchObject({ id: w.member.id, role: 'billing' });
    await expect(admin.organization.changeRole({ member_id: w.member.id, role: 'owner' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await admin.organization.removeMembers({ member_ids: [w.member.id] });
    expect((await owner.organization.members()).map((m) => m.id)).not.toContain(w.member.id);

    await expect(admin.organization.update({ name: 'Team 2' })).resolves.toMatchObject({ name: 'Team 2' });
    await expect(billing.organization.update({ name: 'Nope' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(w.owner).organization.members()).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(callerFor(w.stranger, w.organizationId).organization.get()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lists, aggregates and summarizes usage within what the role may see', async () => {
    const w = await organizationWorld('Usage Co');
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
    await insertUsage([
      { accountId: w.organizationId, userId: w.owner.id, model: 'openai/gpt-4o-mini', createdAt: day(1), costMicros: 1_000_000n, promptTokens: 10, completionTokens: 5 },
      { accountId: w.organizationId, userId: w.member.id, model: 'switchboard/echo', createdAt: day(2), costMicros: 250_000n, promptTokens: 4, completionTokens: 4 },
      { accountId: w.organizationId, userId: w.member.id, model: 'switchboard/echo', createdAt: day(3), costMicros: 250_000n, promptTokens: 4, completionTokens: 4 },
    ]);
    const owner = callerFor(w.owner, w.organizationId);
    const member = callerFor(w.member, w.organizationId);

    const first = await owner.usage.list({ limit: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.visibility).toBe('account');
    const second = await owner.usage.list({ limit: 2, cursor: first.next_cursor! });
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect((await owner.usage.list({ user_id: w.member.id })).data).toHaveLength(2);
    expect((await owner.usage.list({ model: 'openai/gpt-4o-mini' })).data).toHaveLength(1);

    const mine = await member.usage.list({});
    expect(mine.visibility).toBe('own');
    expect(mine.data.every((r) => r.user_id === w.member.id)).toBe(true);
    await expect(member.usage.list({ user_id: w.owner.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });

    const byModel = await owner.usage.groups({ group_by: 'model' });
    expect(byModel.data.map((g) => [g.model, g.cost])).toEqual([['openai/gpt-4o-mini', 1], ['switchboard/echo', 0.5]]);
    const metrics = await owner.usage.metrics({ from: '2026-11-01', to: '2026-11-08', interval: 'day' });
    expect(metrics.totals).toMatchObject({ requests: 3, spend: 1.5 });
    expect(metrics.series).toHaveLength(7);

    const perMember = await owner.usage.byMember({ from: '2026-11-01T00:00:00Z' });
    expect(perMember.find((m) => m.user_id === w.member.id)).toEqual({ user_id: w.member.id, requests: 2, spend: 0.5, total_tokens: 16 });
    await expect(member.usage.byMember({ from: '2026-11-01T00:00:00Z' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
