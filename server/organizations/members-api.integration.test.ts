import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { addMember, jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('REST /api/v1/organizations/{id}/members', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());
  const members = (orgId: string) => `/organizations/${orgId}/members`;

  it('lists members, owners first, with the member id being the user id', async () => {
    const w = await organizationWorld('Listed');
    const res = await call('GET', members(w.organizationId), w.member.token);
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => [m.role, m.id])).toEqual([
      ['owner', w.owner.id],
      ['admin', w.admin.id],
      ['billing', w.billing.id],
      ['member', w.member.id],
    ]);
    expect(res.body.data[0]).toEqual({ id: w.owner.id, user_id: w.owner.id, email: w.owner.email, name: 'owner', image: null, role: 'owner', joined_at: expect.any(String) });
  });

  it('available roles: descriptions, permissions, and what the caller may assign', async () => {
    const w = await organizationWorld('Roles');
    const assignable = async (token: string) =>
      (await call('GET', `${members(w.organizationId)}/available-roles`, token)).body.data.filter((r: any) => r.assignable).map((r: any) => r.role);
    expect(await assignable(w.owner.token)).toEqual(['owner', 'admin', 'billing', 'member']);
    expect(await assignable(w.admin.token)).toEqual(['admin', 'billing', 'member']);
    expect(await assignable(w.billing.token)).toEqual([]);
    const all = (await call('GET', `${members(w.organizationId)}/available-roles`, w.member.token)).body.data;
    expect(all.find((r: any) => r.role === 'billing')).toMatchObject({ description: expect.stringMatching(/payments/), permissions: expect.arrayContaining(['billing:manage', 'plan:manage']) });
    expect(all.find((r: any) => r.role === 'member').permissions).not.toContain('members:manage');
  });

  it('changes roles: only owners touch the owner role, and the last owner stays', async () => {
    const w = await organizationWorld('Promotions');
    const role = (memberId: string) => `${members(w.organizationId)}/${memberId}/role`;
    const toBilling = await call('PUT', role(w.member.id), w.admin.token, { role: 'billing' });
    expect(toBilling.status).toBe(200);
    expect(toBilling.body).toMatchObject({ id: w.member.id, role: 'billing' });
    expect((await call('PUT', role(w.member.id), w.admin.token, { role: 'owner' })).status).toBe(403);
    expect((await call('PUT', role(w.owner.id), w.admin.token, { role: 'member' })).status).toBe(403);
    const lastOwner = await call('PUT', role(w.owner.id), w.owner.token, { role: 'admin' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.error.message).toMatch(/last owner/);
    expect((await call('PUT', role(w.admin.id), w.owner.token, { role: 'owner' })).status).toBe(200);
    expect((await call('PUT', role(w.owner.id), w.owner.token, { role: 'member' })).body.role).toBe('member');
    expect((await call('PUT', role(w.stranger.id), w.admin.token, { role: 'member' })).status).toBe(404);
    expect((await call('PUT', role(w.billing.id), w.admin.token, { role: 'superuser' })).status).toBe(400);
  });

  it('removes members: revokes their organization keys, resets their active account, says so', async () => {
    const w = await organizationWorld('Removals');
    const orgKey = await createApiKey({ userId: w.member.id, input: { name: 'org', account_id: w.organizationId } });
    const personalKey = await createApiKey({ userId: w.member.id, input: { name: 'mine' } });
    await call('PUT', '/users/active-account', w.member.token, { account_id: w.organizationId });

    const res = await call('DELETE', members(w.organizationId), w.admin.token, { member_ids: [w.member.id, w.billing.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      removed: [
        { user_id: expect.any(String), email: expect.any(String), revoked_api_keys: expect.any(Number) },
        { user_id: expect.any(String), email: expect.any(String), revoked_api_keys: expect.any(Number) },
      ],
      revoked_api_keys: 1,
    });
    expect(res.body.removed.find((r: any) => r.user_id === w.member.id).revoked_api_keys).toBe(1);
    expect((await call('GET', '/users/me', orgKey.key)).status).toBe(401);
    expect((await call('GET', '/users/me', personalKey.key)).status).toBe(200);
    expect((await call('GET', '/users/me', w.member.token)).body.active_account_id).toBe(w.member.personalAccountId);
    expect((await call('GET', `/organizations/${w.organizationId}`, w.member.token)).status).toBe(404);
  });

  it('members may leave; removing others, owners or the last owner is refused; all or nothing', async () => {
    const w = await organizationWorld('Leavers');
    const path = members(w.organizationId);
    expect((await call('DELETE', path, w.member.token, { member_ids: [w.billing.id] })).status).toBe(403);
    expect((await call('DELETE', path, w.admin.token, { member_ids: [w.owner.id] })).status).toBe(403);
    const last = await call('DELETE', path, w.owner.token, { member_ids: [w.owner.id] });
    expect(last.status).toBe(409);
    expect(last.body.error.message).toMatch(/at least one owner/);
    const unknown = await call('DELETE', path, w.admin.token, { member_ids: [w.billing.id, w.stranger.id] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.metadata.member_ids).toEqual([w.stranger.id]);
    expect((await call('GET', path, w.billing.token)).status).toBe(200); // untouched: all or nothing
    expect((await call('DELETE', path, w.admin.token, { member_ids: [] })).status).toBe(400);
    expect((await call('DELETE', path, w.admin.token, {})).status).toBe(400);

    const left = await call('DELETE', path, w.member.token, { member_ids: [w.member.id] });
    expect(left.status).toBe(200);
    expect(left.body.removed[0].user_id).toBe(w.member.id);

    // a second owner may leave; then the first is the last again
    const second = await testUser('second-owner');
    await addMember(w.organizationId, second.id, 'OWNER');
    expect((await call('DELETE', path, second.token, { member_ids: [second.id] })).status).toBe(200);
    expect((await call('DELETE', path, w.owner.token, { member_ids: [w.owner.id] })).status).toBe(409);
  });
});
