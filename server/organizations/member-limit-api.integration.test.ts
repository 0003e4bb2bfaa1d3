// GET/PUT /api/v1/organizations/{id}/members/{memberId}/limit through HTTP, and the organization's default
// limit (settings.default_member_limit_usd) given to members who join by invite after it is set.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { currentWindowStart } from '@/server/ledger/reserve';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createOrganization } from './create-organization';
import { defaultMemberLimit } from './member-limit';

describeEachDatabase('REST member spend limits', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());
  const limitPath = (orgId: string, memberId: string) => `/organizations/${orgId}/members/${memberId}/limit`;

  it('no limit by default; PUT sets amount and reset, GET shows it with the window’s usage and what remains', async () => {
    const w = await organizationWorld('Limited');
    const path = limitPath(w.organizationId, w.member.id);
    expect((await call('GET', path, w.admin.token)).body).toEqual({ member_id: w.member.id, amount_usd: null, reset: null, usage_usd: 0, remaining_usd: null, window_started_at: null });

    const set = await call('PUT', path, w.admin.token, { amount_usd: 25.5, reset: 'monthly' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ member_id: w.member.id, amount_usd: 25.5, reset: 'monthly', usage_usd: 0, remaining_usd: 25.5, window_started_at: null });

    // Spend in the current month counts; the spend of a month that ended does not.
    const prisma = await db();
    const monthStart = currentWindowStart('MONTHLY', new Date());
    const where = { organizationId_userId: { organizationId: w.organizationId, userId: w.member.id } };
    await prisma.membership.update({ where, data: { windowSpentMicros: 10_250_000n, windowStartedAt: monthStart } });
    expect((await call('GET', path, w.member.token)).body).toMatchObject({ usage_usd: 10.25, remaining_usd: 15.25, window_started_at: monthStart.toISOString() });
    await prisma.membership.update({ where, data: { windowStartedAt: new Date(monthStart.getTime() - 1) } });
    expect((await call('GET', path, w.member.token)).body).toMatchObject({ usage_usd: 0, remaining_usd: 25.5, window_started_at: null });

    // Over the limit (a settlement above its hold): nothing remains, never a negative amount.
    await prisma.membership.update({ where, data: { windowSpentMicros: 30_000_000n, windowStartedAt: monthStart } });
    expect((await call('GET', path, w.member.token)).body).toMatchObject({ usage_usd: 30, remaining_usd: 0 });

    // Changing the limit keeps the window's spend; null removes the limit; reset absent = never.
    expect((await call('PUT', path, w.owner.token, { amount_usd: 40 })).body).toMatchObject({ amount_usd: 40, reset: null, usage_usd: 30, remaining_usd: 10 });
    expect((await call('PUT', path, w.owner.token, { amount_usd: null, reset: null })).body).toMatchObject({ amount_usd: null, remaining_usd: null, usage_usd: 30 });
    expect(await prisma.membership.findUniqueOrThrow({ where, select: { spendLimitMicros: true, limitReset: true } })).toEqual({ spendLimitMicros: null, limitReset: 'NEVER' });
  });

  it('refuses bad bodies with the spec error body', async () => {
    const w = await organizationWorld('Strict');
    const path = limitPath(w.organizationId, w.member.id);
    for (const bad of [{ amount_usd: 5, reset: 'yearly' }, { amount_usd: -1 }, { amount_usd: '5' }, { amount_usd: 1.0000001 }, { reset: 'daily' }, { amount_usd: 5, extra: 1 }, {}]) {
      const res = await call('PUT', path, w.admin.token, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, message: expect.any(String), metadata: expect.objectContaining({ error_type: 'bad_request' }) });
    }
    expect((await call('PUT', path, w.admin.token, { amount_usd: 5, reset: 'yearly' })).body.error.message).toMatch(/^reset:/);
    expect((await call('PUT', path, w.admin.token, { amount_usd: 0, reset: 'daily' })).body).toMatchObject({ amount_usd: 0, remaining_usd: 0 });
  });

  it('who may: owners and admins set; an owner’s limit only by an owner; members read their own; strangers 404', async () => {
    const w = await organizationWorld('Guarded');
    const member = limitPath(w.organizationId, w.member.id);
    for (const u of [w.member, w.billing]) {
      const res = await call('PUT', member, u.token, { amount_usd: 1 });
      expect(res.status).toBe(403);
      expect(res.body.error.metadata).toMatchObject({ required_permission: 'members:manage' });
    }
    expect((await call('PUT', member, w.admin.token, { amount_usd: 1 })).status).toBe(200);
    const ownerLimit = await call('PUT', limitPath(w.organizationId, w.owner.id), w.admin.token, { amount_usd: 1 });
    expect(ownerLimit.status).toBe(403);
    expect(ownerLimit.body.error.message).toMatch(/owner/);
    expect((await call('PUT', limitPath(w.organizationId, w.owner.id), w.owner.token, { amount_usd: 100 })).status).toBe(200);

    expect((await call('GET', member, w.member.token)).body.amount_usd).toBe(1);
    expect((await call('GET', member, w.billing.token)).status).toBe(200);
    const others = await call('GET', limitPath(w.organizationId, w.admin.id), w.member.token);
    expect(others.status).toBe(403);
    expect(others.body.error.metadata).toMatchObject({ required_permission: 'usage:read-all' });
    expect((await call('GET', member, w.stranger.token)).status).toBe(404);
    expect((await call('PUT', member, w.stranger.token, { amount_usd: 1 })).status).toBe(404);
    expect((await call('GET', limitPath(w.organizationId, w.stranger.id), w.admin.token)).status).toBe(404);
    expect((await call('PUT', limitPath(w.organizationId, w.stranger.id), w.admin.token, { amount_usd: 1 })).status).toBe(404);
  });

  it('records each change in the audit log with before and after', async () => {
    const w = await organizationWorld('Audited');
    await call('PUT', limitPath(w.organizationId, w.member.id), w.admin.token, { amount_usd: 3, reset: 'weekly' });
    const prisma = await db();
    const entries = await prisma.auditLogEntry.findMany({ where: { accountId: w.organizationId, action: 'member.limit_update' } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      targetType: 'member',
      targetId: w.member.id,
      before: expect.objectContaining({ amount_usd: null, reset: null }),
      after: expect.objectContaining({ amount_usd: 3, reset: 'weekly' }),
    });
  });

  it('settings.default_member_limit_usd: validated, and given to members who accept an invite after it is set', async () => {
    // Owner only (the free plan's 3 seats leave room for two who join).
    const owner = await testUser('owner');
    const organizationId = (await createOrganization({ userId: owner.id, input: { name: 'Defaults' } })).id;
    const org = `/organizations/${organizationId}`;
    const invite = async (email: string) => {
      const res = await call('POST', `${org}/invites`, owner.token, { emails: [email], role: 'member' });
      expect(res.status).toBe(200);
      return res.body.data[0].link.split('/invite/')[1] as string;
    };
    const early = await testUser('early');
    const earlyToken = await invite(early.email);

    for (const bad of [{ default_member_limit_usd: -1 }, { default_member_limit_usd: '5' }, { default_member_limit_reset: 'hourly' }, { allowed_providers: 'openai' }]) {
      expect((await call('PUT', org, owner.token, { settings: bad })).status, JSON.stringify(bad)).toBe(400);
    }
    const updated = await call('PUT', org, owner.token, { settings: { default_member_limit_usd: 12.5, default_member_limit_reset: 'daily', allowed_providers: ['openai', 'anthropic'] } });
    expect(updated.status).toBe(200);
    expect(updated.body.settings).toMatchObject({ default_member_limit_usd: 12.5, default_member_limit_reset: 'daily', allowed_providers: ['openai', 'anthropic'] });

    // Invited before, accepting after: the default applies when they join.
    expect((await call('POST', '/invites/accept', early.token, { token: earlyToken })).status).toBe(200);
    expect((await call('GET', limitPath(organizationId, early.id), early.token)).body).toMatchObject({ amount_usd: 12.5, reset: 'daily', remaining_usd: 12.5 });
    // Members who were there before keep no limit.
    expect((await call('GET', limitPath(organizationId, owner.id), owner.token)).body.amount_usd).toBeNull();

    // Cleared: later members join without a limit.
    await call('PUT', org, owner.token, { settings: { default_member_limit_usd: null, default_member_limit_reset: null } });
    const late = await testUser('late');
    expect((await call('POST', '/invites/accept', late.token, { token: await invite(late.email) })).status).toBe(200);
    expect((await call('GET', limitPath(organizationId, late.id), late.token)).body).toMatchObject({ amount_usd: null, reset: null });
  });
});

it('defaultMemberLimit reads the settings as stored (anything unreadable: no limit)', () => {
  expect(defaultMemberLimit({ default_member_limit_usd: 2.000001, default_member_limit_reset: 'weekly' })).toEqual({ spendLimitMicros: 2_000_001n, limitReset: 'WEEKLY' });
  expect(defaultMemberLimit({ default_member_limit_usd: 0 })).toEqual({ spendLimitMicros: 0n, limitReset: 'NEVER' });
  expect(defaultMemberLimit({ default_member_limit_reset: 'daily' })).toEqual({ spendLimitMicros: null, limitReset: 'NEVER' });
  expect(defaultMemberLimit(null)).toEqual({ spendLimitMicros: null, limitReset: 'NEVER' });
  expect(defaultMemberLimit({ default_member_limit_usd: 'lots' })).toEqual({ spendLimitMicros: null, limitReset: 'NEVER' });
});
