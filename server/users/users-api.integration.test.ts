import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { createOrganization } from '@/server/organizations/create-organization';
import { CURRENT_TERMS_VERSION } from '@/server/users/terms';
import { addMember, jsonClient, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('REST /api/v1/users', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  describe('profile', () => {
    it('GET /users/me has the spec fields and what clients need, never secrets', async () => {
      const u = await testUser('profile');
      const org = await createOrganization({ userId: u.id, input: { name: 'Profile Org' } });
      const res = await call('GET', '/users/me', u.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: u.id,
        email: u.email,
        name: 'profile',
        active_account_id: u.personalAccountId,
        personal_account_id: u.personalAccountId,
        email_verified: false,
        terms_version: null,
        terms_current_version: CURRENT_TERMS_VERSION,
        requires_terms_acceptance: true,
        organizations: [{ id: org.id, name: 'Profile Org', slug: org.slug, role: 'owner' }],
      });
      expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenHash|scrypt/);
    });

    it('PATCH changes name and image only; other fields are 400s', async () => {
      const u = await testUser('patch');
      const ok = await call('PATCH', '/users/me', u.token, { name: '  Grace Hopper ', image: 'https://img.example/g.png' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ name: 'Grace Hopper', image: 'https://img.example/g.png' });
      expect((await call('PATCH', '/users/me', u.token, { image: null })).body.image).toBeNull();
      for (const body of [{}, { email: 'x@example.com' }, { email_verified: true }, { name: '' }, { image: 'javascript:alert(1)' }, { name: 'x', role: 'owner' }]) {
        const res = await call('PATCH', '/users/me', u.token, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe(400);
      }
    });

    it('accept-terms records the current version (and refuses others)', async () => {
      const u = await testUser('terms');
      const wrong = await call('POST', '/users/me/accept-terms', u.token, { version: '1999-01-01' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.metadata.current_version).toBe(CURRENT_TERMS_VERSION);
      expect((await call('POST', '/users/me/accept-terms', u.token, {})).status).toBe(400);
      const ok = await call('POST', '/users/me/accept-terms', u.token, { version: CURRENT_TERMS_VERSION }, { 'user-agent': 'vitest', 'x-forwarded-for': '198.51.100.7' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ terms_version: CURRENT_TERMS_VERSION, requires_terms_acceptance: false, terms_accepted_at: expect.any(String) });
      const prisma = await db();
      expect(await prisma.termsAcceptance.findMany({ where: { userId: u.id }, select: { version: true, ip: true, userAgent: true } })).toEqual([
        { version: CURRENT_TERMS_VERSION, ip: '198.51.100.7', userAgent: 'vitest' },
      ]);
    });
  });

  describe('active account and remote config', () => {
    it('switches between personal and member organizations; others are 403', async () => {
      const u = await testUser('switch');
      const other = await testUser('other');
      const mine = await createOrganization({ userId: other.id, input: { name: 'Shared' } });
      await addMember(mine.id, u.id, 'MEMBER');
      const theirs = await createOrganization({ userId: other.id, input: { name: 'Private' } });

      const toOrg = await call('PUT', '/users/active-account', u.token, { account_id: mine.id });
      expect([toOrg.status, toOrg.body.active_account_id]).toEqual([200, mine.id]);
      expect((await call('PUT', '/users/active-account', u.token, { account_id: theirs.id })).status).toBe(403);
      expect((await call('PUT', '/users/active-account', u.token, { account_id: other.personalAccountId })).status).toBe(403);
      expect((await call('PUT', '/users/active-account', u.token, {})).status).toBe(400);
      const back = await call('PUT', '/users/active-account', u.token, { account_id: u.personalAccountId });
      expect(back.body.active_account_id).toBe(u.personalAccountId);
    });

    it('remote config: defaults ← GLOBAL ← active organization ← user', async () => {
      const u = await testUser('config');
      const org = await createOrganization({ userId: u.id, input: { name: 'Configured' } });
      const prisma = await db();
      await prisma.remoteConfig.deleteMany({ where: { scope: 'GLOBAL' } });
      await prisma.remoteConfig.createMany({
        data: [
          { scope: 'GLOBAL', key: 'banner', value: 'hello' },
          { scope: 'ORGANIZATION', scopeId: org.id, key: 'features', value: { reasoning: false } },
          { scope: 'ORGANIZATION', scopeId: org.id, key: 'default_model', value: 'openai/gpt-5-mini' },
          { scope: 'USER', scopeId: u.id, key: 'small_model', value: 'google/gemini-2.5-flash' },
        ],
      });
      const personal = await call('GET', '/users/me/remote-config', u.token);
      expect(personal.status).toBe(200);
      expect(personal.body).toMatchObject({ account_id: u.personalAccountId, config: { banner: 'hello', default_model: 'anthropic/claude-sonnet-5.5', small_model: 'google/gemini-2.5-flash', features: { reasoning: true } } });
      expect(personal.body.sources).toMatchObject({ banner: 'global', small_model: 'user', default_model: 'default' });

      await call('PUT', '/users/active-account', u.token, { account_id: org.id });
      const inOrg = await call('GET', '/users/me/remote-config', u.token);
      expect(inOrg.body).toMatchObject({ account_id: org.id, config: { default_model: 'openai/gpt-5-mini', small_model: 'google/gemini-2.5-flash', features: { reasoning: false, streaming: true } } });
      const orgOnly = await call('GET', `/organizations/${org.id}/remote-config`, u.token);
      expect(orgOnly.body).toMatchObject({ account_id: org.id, config: { default_model: 'openai/gpt-5-mini', small_model: 'openai/gpt-4o-mini' } });
      await prisma.remoteConfig.deleteMany({ where: { scope: 'GLOBAL' } });
    });
  });

  describe('DELETE /users/me', () => {
    it('refuses a sole owner (409 naming the organization), then deletes and revokes every credential', async () => {
      const u = await testUser('leaver');
      const co = await testUser('co-owner');
      const org = await createOrganization({ userId: u.id, input: { name: 'Solo Inc' } });
      const { key } = await createApiKey({ userId: u.id, input: { name: 'personal' } });
      await createApiKey({ userId: u.id, input: { name: 'org', account_id: org.id } });

      const refused = await call('DELETE', '/users/me', u.token);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/only owner of "Solo Inc"/);
      expect(refused.body.error.metadata.organizations).toEqual([{ id: org.id, name: 'Solo Inc' }]);
      expect((await call('GET', '/users/me', key)).status).toBe(200);

      await addMember(org.id, co.id, 'OWNER');
      const deleted = await call('DELETE', '/users/me', key);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ deleted: true, id: u.id, revoked_api_keys: 2, revoked_auth_tokens: 1, left_organizations: 1 });
      expect((await call('GET', '/users/me', key)).status).toBe(401);
      expect((await call('GET', '/users/me', u.token)).status).toBe(401);
      const members = await call('GET', `/organizations/${org.id}/members`, co.token);
      expect(members.body.data.map((m: any) => m.id)).toEqual([co.id]);
      // the personal billing account stays for the ledger, anonymised
      const prisma = await db();
      expect(await prisma.account.findUnique({ where: { id: u.personalAccountId }, select: { name: true } })).toEqual({ name: 'Deleted user' });
    });
  });
});
