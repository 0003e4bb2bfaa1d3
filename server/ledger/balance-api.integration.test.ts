// GET /users/{id}/balance and /organizations/{id}/balance through HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller, createTestOrganization, createTestUser } from '@/test/factories';
import { reserveCredits } from './reserve';

describeEachDatabase('REST balance', () => {
  let api: ApiServer;
  const call = apiCaller(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const get = async (path: string, key: string | null) => {
    const res = await call('GET', path, key);
    return { status: res.status, body: await res.json() };
  };

  it('your balance: paid, promotional, reserved by requests in flight, available, depleted', async () => {
    const u = await createTestUser(2.5);
    const { status, body } = await get('/users/me/balance', u.key);
    expect(status).toBe(200);
    expect(body).toEqual({
      account_id: u.user.personal_account_id,
      balance: 2.5,
      paid: 2.5,
      promotional: 0,
      reserved: 0,
      available: 2.5,
      balance_micros: '2500000',
      available_micros: '2500000',
      currency: 'usd',
      isDepleted: false,
    });
    await reserveCredits({ accountId: u.user.personal_account_id, generationId: `gen-${randomUUID()}`, amountMicros: 2_500_000n });
    const held = await get(`/users/${u.user.id}/balance`, u.key);
    expect(held.body).toMatchObject({ balance: 2.5, reserved: 2.5, available: 0, isDepleted: true });
    const stranger = await createTestUser();
    expect((await get(`/users/${u.user.id}/balance`, stranger.key)).status).toBe(404);
    expect((await get('/users/me/balance', null)).status).toBe(401);
  });

  it('organization balance: amounts for billing:read, only isDepleted for members, 404 for strangers', async () => {
    const [owner, billing, member, stranger] = await Promise.all([createTestUser(), createTestUser(), createTestUser(), createTestUser()]);
    const org = await createTestOrganization({ usd: 7, members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: billing.user.id, role: 'BILLING' }, { userId: member.user.id, role: 'MEMBER' }] });
    for (const u of [owner, billing]) expect((await get(`/organizations/${org.id}/balance`, u.key)).body).toMatchObject({ account_id: org.id, balance: 7, available: 7, isDepleted: false });
    const limited = await get(`/organizations/${org.id}/balance`, member.key);
    expect(limited.status).toBe(200);
    expect(limited.body).toEqual({ account_id: org.id, currency: 'usd', isDepleted: false });
    expect((await get(`/organizations/${org.id}/balance`, stranger.key)).status).toBe(404);
    expect((await get(`/organizations/${owner.user.personal_account_id}/balance`, owner.key)).status).toBe(404);
  });
});
