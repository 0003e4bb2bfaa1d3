import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { grantCredits } from '@/server/ledger/balance';
import { seedPlans } from '@/server/seed';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('REST /api/v1/organizations', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
    await seedPlans();
  });
  afterAll(() => api?.close());

  describe('create, read, update', () => {
    it('creates an organization with its account and the caller as owner; slugs are unique', async () => {
      const u = await testUser('founder');
      const res = await call('POST', '/organizations', u.token, { name: 'Ünïcode Labs, Inc.' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'Ünïcode Labs, Inc.', slug: 'unicode-labs-inc', role: 'owner', member_count: 1, settings: {} });
      const twin = await call('POST', '/organizations', u.token, { name: 'Unicode Labs Inc' });
      expect(twin.status).toBe(201);
      expect(twin.body.slug).toMatch(/^unicode-labs-inc-[0-9a-f]{6}$/);
      const taken = await call('POST', '/organizations', u.token, { name: 'Other', slug: 'unicode-labs-inc' });
      expect(taken.status).toBe(409);
      expect((await call('POST', '/organizations', u.token, { name: '' })).status).toBe(400);
      expect((await call('POST', '/organizations', u.token, { name: 'x', slug: '-bad-' })).status).toBe(400);

      const prisma = await db();
      expect(await prisma.account.findUnique({ where: { id: res.body.id }, select: { kind: true, name: true } })).toEqual({ kind: 'ORGANIZATION', name: 'Ünïcode Labs, Inc.' });
      const got = await call('GET', `/organizations/${res.body.id}`, u.token);
      expect(got.body).toMatchObject({ id: res.body.id, role: 'owner' });
      // another tenant's organization and an unknown id look the same
      const stranger = await testUser('stranger');
      const hidden = await call('GET', `/organizations/${res.body.id}`, stranger.token);
      const unknown = await call('GET', '/organizations/does-not-exist', stranger.token);
      expect([hidden.status, unknown.status]).toEqual([404, 404]);
      expect(hidden.body.error.message).toBe(unknown.body.error.message);
      // a personal account is not an organization
      expect((await call('GET', `/organizations/${u.personalAccountId}`, u.token)).status).toBe(404);
    });

    it('updates name, slug and settings (merged; null removes; unknown keys 400)', async () => {
      const w = await organizationWorld('Settings Co');
      const path = `/organizations/${w.organizationId}`;
      const a = await call('PUT', path, w.admin.token, { settings: { default_model: 'openai/gpt-5-mini', allowed_models: ['openai/gpt-5-mini'] } });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ role: 'admin', settings: { default_model: 'openai/gpt-5-mini', allowed_models: ['openai/gpt-5-mini'] } });
      const b = await call('PUT', path, w.owner.token, { name: 'Settings Company', slug: `settings-${Date.now()}`, settings: { default_model: null } });
      expect(b.body).toMatchObject({ name: 'Settings Company', settings: { allowed_models: ['openai/gpt-5-mini'] } });
      expect(b.body.settings.default_model).toBeUndefined();
      expect((await call('PUT', path, w.owner.token, { settings: { colour: 'red' } })).status).toBe(400);
      expect((await call('PUT', path, w.owner.token, {})).status).toBe(400);
      const other = await call('POST', '/organizations', w.owner.token, { name: 'Other', slug: `other-${Date.now()}` });
      expect((await call('PUT', path, w.owner.token, { slug: other.body.slug })).status).toBe(409);
    });

    it('lists organization keys: everyone for owners/admins, own keys for other roles', async () => {
      const w = await organizationWorld('Keys Co');
      const own = await createApiKey({ userId: w.member.id, input: { name: 'member key', account_id: w.organizationId } });
      await createApiKey({ userId: w.admin.id, input: { name: 'admin key', account_id: w.organizationId } });
      await createApiKey({ userId: w.member.id, input: { name: 'personal key' } });
      const names = async (token: string) => (await call('GET', `/organizations/${w.organizationId}/api-keys`, token)).body.data.map((k: any) => k.name).sort();
      expect(await names(w.owner.token)).toEqual(['admin key', 'member key']);
      expect(await names(w.member.token)).toEqual(['member key']);
      expect(await names(w.billing.token)).toEqual([]);
      expect(JSON.stringify(await call('GET', `/organizations/${w.organizationId}/api-keys`, w.owner.token))).not.toContain(own.key);
    });
  });

  describe('delete', () => {
    it('refuses while credit remains unless forced; revokes keys, resets active accounts, keeps the ledger', async () => {
      const w = await organizationWorld('Doomed');
      const { key } = await createApiKey({ userId: w.member.id, input: { name: 'k', account_id: w.organizationId } });
      await call('PUT', '/users/active-account', w.member.token, { account_id: w.organizationId });
      await grantCredits({ accountId: w.organizationId, amountMicros: 2_500_000n, idempotencyKey: `test:${w.organizationId}` });

      const refused = await call('DELETE', `/organizations/${w.organizationId}`, w.owner.token);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ message: expect.stringMatching(/\$2\.50 of credit.*force=true/), metadata: { balance: 2.5 } });
      expect((await call('DELETE', `/organizations/${w.organizationId}?force=maybe`, w.owner.token)).status).toBe(400);

      const res = await call('DELETE', `/organizations/${w.organizationId}?force=true`, w.owner.token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: true, id: w.organizationId, revoked_api_keys: 1, removed_members: 4, forfeited_balance: 2.5 });
      expect((await call('GET', '/users/me', key)).status).toBe(401);
      expect((await call('GET', '/users/me', w.member.token)).body.active_account_id).toBe(w.member.personalAccountId);
      expect((await call('GET', `/organizations/${w.organizationId}`, w.owner.token)).status).toBe(404);
      const prisma = await db();
      expect(await prisma.ledgerEntry.count({ where: { accountId: w.organizationId } })).toBe(1);
    });

    it('refuses while a subscription is live', async () => {
      const w = await organizationWorld('Subscribed');
      const prisma = await db();
      await prisma.subscription.create({ data: { organizationId: w.organizationId, planId: 'teams', status: 'ACTIVE', seats: 5, provider: 'SANDBOX' } });
      const res = await call('DELETE', `/organizations/${w.organizationId}`, w.owner.token);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/cancel the plan/);
    });
  });
});
