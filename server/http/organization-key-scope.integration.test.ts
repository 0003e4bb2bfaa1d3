// An API key created for an organization acts for that organization only. Through HTTP, with the key of a
// user who also has a personal account (with credit, usage and keys of its own) and belongs to a second
// organization: nothing personal is readable or writable with it, and the other organization is a 404.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { grantCredits } from '@/server/ledger/balance';
import { createOrganization } from '@/server/organizations/create-organization';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { insertUsage } from '@/test/factories';

describeEachDatabase('an organization API key', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let creator: TestUser;
  let organizationId: string;
  let otherOrganizationId: string;
  let orgKey: string;
  let personalKey: string;
  let personalKeyId: string;
  let personalGenerationId: string;

  beforeAll(async () => {
    api = await startApiServer();
    creator = await testUser('creator');
    organizationId = (await createOrganization({ userId: creator.id, input: { name: 'Acme' } })).id;
    otherOrganizationId = (await createOrganization({ userId: creator.id, input: { name: 'Other' } })).id;
    await grantCredits({ accountId: creator.personalAccountId, amountMicros: 7_000_000n, idempotencyKey: `seed:${creator.id}` });
    [personalGenerationId] = await insertUsage([{ userId: creator.id, accountId: creator.personalAccountId, costMicros: 1_000n }]);
    ({ key: orgKey } = await createApiKey({ userId: creator.id, input: { name: 'org', account_id: organizationId } }));
    const personal = await createApiKey({ userId: creator.id, input: { name: 'personal' } });
    personalKey = personal.key;
    personalKeyId = personal.apiKey.id;
  });
  afterAll(() => api?.close());

  it('cannot read its creator\'s personal balance, usage, promotions or payments (403, spec body)', async () => {
    for (const path of ['/users/me/balance', `/users/${creator.id}/balance`, '/users/me/usages', '/users/me/promotions', '/users/me/payments', '/users/me/auto-top-up', '/users/me']) {
      const res = await call('GET', path, orgKey);
      expect(res.status, path).toBe(403);
      expect(res.body.error).toMatchObject({ code: 403, metadata: { organization_id: organizationId } });
    }
    // The same calls with the creator's personal key work: the refusal is about the key, not the user.
    expect((await call('GET', '/users/me/balance', personalKey)).status).toBe(200);
  });

  it('cannot look up a generation of the personal account', async () => {
    expect((await call('GET', `/generation?id=${personalGenerationId}`, orgKey)).status).toBe(404);
    expect((await call('GET', `/generation?id=${personalGenerationId}`, personalKey)).status).toBe(200);
  });

  it('lists only its organization\'s keys, never the personal ones', async () => {
    const res = await call('GET', '/api-keys', orgKey);
    expect(res.status).toBe(200);
    const accounts = new Set(res.body.data.map((k: { account_id: string }) => k.account_id));
    expect([...accounts]).toEqual([organizationId]);
    expect(res.body.data.some((k: { id: string }) => k.id === personalKeyId)).toBe(false);
  });

  it('cannot mint a personal key: keys it creates belong to its organization', async () => {
    const explicit = await call('POST', '/api-keys', orgKey, { name: 'escape', account_id: creator.personalAccountId });
    expect(explicit.status).toBe(403);
    expect(explicit.body.error.code).toBe(403);
    const implicit = await call('POST', '/api-keys', orgKey, { name: 'default' });
    expect(implicit.status).toBe(201);
    expect(implicit.body.data.account_id).toBe(organizationId);
  });

  it('cannot delete its creator\'s personal key', async () => {
    expect((await call('DELETE', `/api-keys/${personalKeyId}`, orgKey)).status).toBe(404);
    expect((await call('GET', '/users/me/balance', personalKey)).status).toBe(200);
  });

  it('cannot list or revoke the creator\'s sign-in tokens, or redeem codes for the personal account', async () => {
    expect((await call('GET', '/auth/tokens', orgKey)).status).toBe(403);
    expect((await call('DELETE', `/auth/tokens/${creator.tokenId}`, orgKey)).status).toBe(403);
    expect((await call('POST', '/promotions/redeem', orgKey, { code: 'ANY', account_id: creator.personalAccountId })).status).toBe(403);
  });

  it('acts for its own organization and not for another one its creator belongs to', async () => {
    expect((await call('GET', `/organizations/${organizationId}/balance`, orgKey)).status).toBe(200);
    expect((await call('GET', `/organizations/${otherOrganizationId}/balance`, orgKey)).status).toBe(404);
    expect((await call('GET', `/organizations/${otherOrganizationId}`, orgKey)).status).toBe(404);
    // A personal key (and a token) still reach every organization of the user, as before.
    expect((await call('GET', `/organizations/${otherOrganizationId}/balance`, personalKey)).status).toBe(200);
    expect((await call('GET', '/users/me/balance', creator.token)).status).toBe(200);
  });
});
