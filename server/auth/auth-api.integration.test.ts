import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideDeviceAuthorization, findDeviceAuthorization } from '@/server/auth/decide-device-authorization';
import { approveRedirectAuthorization } from '@/server/auth/redirect-authorization';
import { grantCredits } from '@/server/ledger/balance';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { jsonClient, testUser, uniqueEmail } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('REST /api/v1/auth', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
    process.env.PUBLIC_URL = api.origin; // links name this server (server/http/public-origin.ts)
    resetEnvCache();
  });
  afterAll(async () => {
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    await api?.close();
  });

  /** Pretends the client waited its interval since the last poll. */
  const waitedInterval = async (deviceCode: string) => {
    const prisma = await db();
    const { hashSecret } = await import('@/server/auth/secret-token');
    await prisma.deviceAuthorization.update({ where: { deviceCodeHash: hashSecret(deviceCode) }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });
  };

  describe('sign-up', () => {
    it('creates a user (201) and refuses the same email again, whatever its case (409)', async () => {
      const email = uniqueEmail('Signup');
      const res = await call('POST', '/auth/sign-up', null, { email, password: 'correct horse', name: 'Ada' });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({ email: email.toLowerCase(), name: 'Ada', active_account_id: res.body.user.personal_account_id });
      expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
      const again = await call('POST', '/auth/sign-up', null, { email: email.toUpperCase(), password: 'another one', name: 'Eve' });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe(409);
    });

    it('400s on bad input with the field named', async () => {
      for (const body of [{ email: 'nope', password: 'correct horse', name: 'A' }, { email: uniqueEmail(), password: 'short', name: 'A' }, { email: uniqueEmail(), password: 'correct horse' }, '{oops']) {
        const res = await call('POST', '/auth/sign-up', null, body);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBeTruthy();
      }
      const res = await call('POST', '/auth/sign-up', null, { email: uniqueEmail(), password: 'short', name: 'A' });
      expect(res.body.error.message).toMatch(/^password: /);
    });

    it('limits sign-ups per address (429 with Retry-After)', async () => {
      const ip = { 'x-forwarded-for': `client-${uniqueEmail()}` };
      for (let i = 0; i < 20; i++) expect((await call('POST', '/auth/sign-up', null, { email: uniqueEmail('q'), password: 'correct horse', name: 'Q' }, ip)).status).toBe(201);
      const res = await call('POST', '/auth/sign-up', null, { email: uniqueEmail('q'), password: 'correct horse', name: 'Q' }, ip);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('device flow', () => {
    it('code → pending → slow_down → approved → token (once) → works on account endpoints', async () => {
      const u = await testUser('device');
      const code = await call('POST', '/auth/device/code', null, { client_name: 'Switchboard CLI on laptop', client_kind: 'cli' });
      expect(code.status).toBe(200);
      expect(code.body).toMatchObject({ user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), expires_in: 900, interval: 5 });
      expect(code.body.device_code).toMatch(/^sb-dev-/);
      expect(code.body.verification_uri).toBe(`${api.origin}/device`);
      expect(code.body.verification_uri_complete).toBe(`${api.origin}/device?user_code=${code.body.user_code}`);

      const pending = await call('POST', '/auth/device/token', null, { device_code: code.body.device_code });
      expect(pending.status).toBe(428);
      expect(pending.body.error).toMatchObject({ code: 'authorization_pending', metadata: { interval: 5 } });
      const fast = await call('POST', '/auth/device/token', null, { device_code: code.body.device_code });
      expect(fast.status).toBe(429);
      expect(fast.body.error).toMatchObject({ code: 'slow_down', metadata: { interval: 10 } });
      expect(fast.headers.get('retry-after')).toBe('10');

      const shown = await findDeviceAuthorization({ userCode: code.body.user_code.toLowerCase().replace('-', ' ') });
      expect(shown).toMatchObject({ client_name: 'Switchboard CLI on laptop', client_kind: 'cli', status: 'pending' });
      await decideDeviceAuthorization({ userCode: code.body.user_code, userId: u.id, approve: true });
      await expect(decideDeviceAuthorization({ userCode: code.body.user_code, userId: u.id, approve: false })).rejects.toMatchObject({ code: 'conflict' });

      await waitedInterval(code.body.device_code);
      const issued = await call('POST', '/auth/device/token', null, { device_code: code.body.device_code });
      expect(issued.status).toBe(200);
      expect(issued.body).toMatchObject({ token_type: 'Bearer', user: { id: u.id, email: u.email } });
      expect(issued.body.token).toMatch(/^sb-at-v1-/);
      expect(issued.body.access_token).toBe(issued.body.token); // the OAuth field, in both dialects

      await waitedInterval(code.body.device_code);
      const second = await call('POST', '/auth/device/token', null, { device_code: code.body.device_code });
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('device_code_used');

      const me = await call('GET', '/users/me', issued.body.token);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(u.id);
      const tokens = await call('GET', '/auth/tokens', issued.body.token);
      const mine = tokens.body.data.find((t: any) => t.device_name === 'Switchboard CLI on laptop');
      expect(mine).toMatchObject({ client_kind: 'cli', hint: expect.stringMatching(/^sb-at-v1-.{3}…/) });
      expect(JSON.stringify(tokens.body)).not.toContain(issued.body.token);

      expect((await call('DELETE', `/auth/tokens/${mine.id}`, issued.body.token)).status).toBe(200);
      expect((await call('GET', '/users/me', issued.body.token)).status).toBe(401);
      expect((await call('DELETE', `/auth/tokens/${mine.id}`, u.token)).status).toBe(404);
    });

    it('answers access_denied, expired_token and invalid_grant distinctly', async () => {
      const u = await testUser('device2');
      const denied = (await call('POST', '/auth/device/code', null, {})).body;
      await decideDeviceAuthorization({ userCode: denied.user_code, userId: u.id, approve: false });
      const d = await call('POST', '/auth/device/token', null, { device_code: denied.device_code });
      expect([d.status, d.body.error.code]).toEqual([403, 'access_denied']);

      const old = (await call('POST', '/auth/device/code', null, { client_kind: 'editor' })).body;
      const prisma = await db();
      await prisma.deviceAuthorization.update({ where: { userCode: old.user_code }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const e = await call('POST', '/auth/device/token', null, { device_code: old.device_code });
      expect([e.status, e.body.error.code]).toEqual([410, 'expired_token']);
      await expect(decideDeviceAuthorization({ userCode: old.user_code, userId: u.id, approve: true })).rejects.toMatchObject({ code: 'gone' });

      const unknown = await call('POST', '/auth/device/token', null, { device_code: 'sb-dev-nope' });
      expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_grant']);
      expect((await call('POST', '/auth/device/token', null, {})).status).toBe(400);
      expect((await call('POST', '/auth/device/code', null, { client_kind: 'toaster' })).status).toBe(400);
      await expect(decideDeviceAuthorization({ userCode: 'ABCD', userId: u.id, approve: true })).rejects.toMatchObject({ code: 'bad_request' });
      await expect(decideDeviceAuthorization({ userCode: 'BBBB-BBBB', userId: u.id, approve: true })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('tokens', () => {
    it('the redirect flow issues a working editor token; tokens of deleted users fail', async () => {
      const u = await testUser('editor');
      const { redirect } = await approveRedirectAuthorization({ userId: u.id, input: { redirect_uri: 'vscode://switchboard.switchboard/auth?x=1', state: 'abc', client_name: '' } });
      const url = new URL(redirect);
      expect(url.protocol).toBe('vscode:');
      expect(url.searchParams.get('state')).toBe('abc');
      expect(url.searchParams.get('x')).toBe('1');
      const token = url.searchParams.get('token')!;
      const list = await call('GET', '/auth/tokens', token);
      expect(list.body.data.map((t: any) => [t.device_name, t.client_kind])).toContainEqual(['VS Code', 'editor']);

      // account auth tokens work on the chat endpoint too, billing the user's active account
      await grantCredits({ accountId: u.personalAccountId, amountMicros: 1_000_000n, idempotencyKey: `test:${u.id}` });
      const chat = await call('POST', '/chat/completions', token, { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false });
      expect(chat.status).toBe(200);
      expect(chat.body.choices[0].message.role).toBe('assistant');
      await api.runtime.settlements.flush();

      expect((await call('DELETE', '/users/me', token)).status).toBe(200);
      expect((await call('GET', '/users/me', token)).status).toBe(401);
      expect((await call('GET', '/auth/tokens', u.token)).status).toBe(401);
    });
  });
});
