// The console's administration procedures (policy and member limits, provider keys, webhooks, audit log,
// SSO, a model's providers): each refuses a role without its permission with FORBIDDEN, as the REST routes
// do with 403, and hands the services' DTOs to the roles that have it.
import { afterAll, expect, it } from 'vitest';
import { processRuntime } from '@/server/runtime/process-runtime';
import { organizationWorld, type TestUser } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { createCaller } from './root';

const callerFor = (u: Pick<TestUser, 'id' | 'personalAccountId'>, accountId = u.personalAccountId) =>
  createCaller({ principal: { kind: 'session', userId: u.id, accountId }, origin: 'https://console.example' });

afterAll(async () => {
  await processRuntime().close();
});

describeEachDatabase('tRPC administration routers', () => {
  it('refuses each administration procedure to a role without its permission', async () => {
    const w = await organizationWorld('Admins');
    const member = callerFor(w.member, w.organizationId);
    const billing = callerFor(w.billing, w.organizationId);
    const admin = callerFor(w.admin, w.organizationId);
    const forbidden = { code: 'FORBIDDEN' };

    // provider-keys:manage, webhooks:manage, audit:read: owners and admins.
    for (const caller of [member, billing]) {
      await expect(caller.providerKeys.list()).rejects.toMatchObject(forbidden);
      await expect(caller.providerKeys.providers()).rejects.toMatchObject(forbidden);
      await expect(caller.providerKeys.set({ provider: 'openai', key: 'sk-test-0123456789' })).rejects.toMatchObject(forbidden);
      await expect(caller.providerKeys.delete({ provider: 'openai' })).rejects.toMatchObject(forbidden);
      await expect(caller.webhooks.list()).rejects.toMatchObject(forbidden);
      await expect(caller.webhooks.create({ url: 'https://hooks.example.com/x', events: ['key.created'] })).rejects.toMatchObject(forbidden);
      await expect(caller.webhooks.delete({ id: 'whatever' })).rejects.toMatchObject(forbidden);
      await expect(caller.webhooks.deliveries({ webhook_id: 'whatever' })).rejects.toMatchObject(forbidden);
      await expect(caller.auditLog.list({})).rejects.toMatchObject(forbidden);
      await expect(caller.organization.setMemberLimit({ member_id: w.member.id, amount_usd: 5, reset: 'daily' })).rejects.toMatchObject(forbidden);
    }
    // sso:manage: owners only.
    for (const caller of [member, billing, admin]) {
      await expect(caller.sso.get()).rejects.toMatchObject(forbidden);
      await expect(caller.sso.set({ issuer: 'https://login.example.com', client_id: 'c', client_secret: 's', domains: ['example.com'] })).rejects.toMatchObject(forbidden);
      await expect(caller.sso.verify()).rejects.toMatchObject(forbidden);
      await expect(caller.sso.delete()).rejects.toMatchObject(forbidden);
    }
    // Someone else's limit: only roles that read everyone's usage.
    await expect(member.organization.memberLimit({ member_id: w.admin.id })).rejects.toMatchObject(forbidden);
    // An admin may not set an owner's limit (the service's rule).
    await expect(admin.organization.setMemberLimit({ member_id: w.owner.id, amount_usd: 5, reset: null })).rejects.toMatchObject(forbidden);
    // A stranger's session on the organization: NOT_FOUND, as REST answers 404.
    await expect(callerFor(w.stranger, w.organizationId).auditLog.list({})).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('hands the permitted roles the services’ answers', async () => {
    const w = await organizationWorld('Permitted');
    const owner = callerFor(w.owner, w.organizationId);
    const admin = callerFor(w.admin, w.organizationId);
    const member = callerFor(w.member, w.organizationId);

    const limit = await admin.organization.setMemberLimit({ member_id: w.member.id, amount_usd: 12.5, reset: 'weekly' });
    expect(limit).toMatchObject({ member_id: w.member.id, amount_usd: 12.5, reset: 'weekly', usage_usd: 0 });
    expect(await member.organization.memberLimit({ member_id: w.member.id })).toMatchObject({ amount_usd: 12.5, reset: 'weekly' });

    expect(await admin.providerKeys.list()).toEqual([]);
    expect(await admin.providerKeys.providers()).toContain('openai');
    expect(await admin.webhooks.list()).toEqual({ data: [] });
    // null, not an error, while single sign-on is not set up.
    expect(await owner.sso.get()).toBeNull();

    const audit = await owner.auditLog.list({ action: 'member.' });
    expect(audit.data.map((e) => e.action)).toEqual(['member.limit_update']);
    expect(audit.data[0]!.actor).toMatchObject({ user_id: w.admin.id, via: 'console' });

    // Personal accounts: the user is the owner of their own.
    expect(await callerFor(w.member).webhooks.list()).toEqual({ data: [] });
    await expect(callerFor(w.owner).sso.get()).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("shows a model's providers with status and latency, never key references", async () => {
    const caller = callerFor((await organizationWorld('Routing')).member);
    const model = await caller.models.providers({ id: 'openai/gpt-4o-mini' });
    expect(model.id).toBe('openai/gpt-4o-mini');
    const openai = model.endpoints.find((e) => e.provider === 'openai');
    expect(openai).toMatchObject({ provider_name: expect.any(String), latency_ms: null, tokens_per_second: null });
    expect(['healthy', 'unconfigured', 'disabled', 'cooling', 'open', 'half_open']).toContain(openai!.status);
    expect(JSON.stringify(model)).not.toMatch(/"(ref|keys|key_id)"/);
    await expect(caller.models.providers({ id: 'nobody/nothing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await caller.models.routingProviders()).map((p) => p.id)).toContain('echo');
  });
});
