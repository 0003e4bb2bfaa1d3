// The device flow as OAuth 2.0 clients speak it (RFC 8628, RFC 6749 §5), through HTTP: raw form-encoded
// polls for each answer, and `openid-client` (a maintained, certified OAuth client) running the whole grant
// against our endpoints. The JSON dialect first-party clients use is covered by auth-api.integration.test.ts.
import * as oauth from 'openid-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decideDeviceAuthorization } from '@/server/auth/decide-device-authorization';
import { DEVICE_CODE_GRANT_TYPE } from '@/server/auth/poll-device-authorization';
import { hashSecret } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('device flow over OAuth 2.0 (RFC 8628)', (kind) => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const form = async (path: string, fields: Record<string, string>) => {
    const res = await fetch(`${api.origin}/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  };
  const poll = (deviceCode: string, extra: Record<string, string> = {}) =>
    form('/auth/device/token', { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: deviceCode, client_id: 'acme-cli', ...extra });
  /** Pretends the client waited its interval since the last poll. */
  const waitedInterval = async (deviceCode: string) =>
    (await db()).deviceAuthorization.update({ where: { deviceCodeHash: hashSecret(deviceCode) }, data: { lastPolledAt: new Date(Date.now() - 60_000) } });

  it('answers form-encoded polls with RFC 6749 §5.2 errors (400) and, once approved, an access token', async () => {
    const u = await testUser('oauth-device');
    const code = await form('/auth/device/code', { client_id: 'acme-cli', scope: 'openid' });
    expect(code.status).toBe(200);
    expect(code.body).toMatchObject({ device_code: expect.any(String), user_code: expect.any(String), verification_uri: expect.any(String), expires_in: 900, interval: 5 });

    const pending = await poll(code.body.device_code);
    expect([pending.status, pending.body.error]).toEqual([400, 'authorization_pending']);
    expect(pending.body.error_description).toEqual(expect.any(String));
    expect(pending.headers.get('cache-control')).toBe('no-store');
    // Polled again at once: slow_down, and the interval grows by 5 s (RFC 8628 §3.5).
    const fast = await poll(code.body.device_code);
    expect([fast.status, fast.body.error, fast.body.interval]).toEqual([400, 'slow_down', 10]);

    await decideDeviceAuthorization({ userCode: code.body.user_code, userId: u.id, approve: true });
    await waitedInterval(code.body.device_code);
    const issued = await poll(code.body.device_code);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ access_token: expect.stringMatching(/^sb-at-v1-/), token_type: 'Bearer', user: { id: u.id } });
    expect(issued.body.token).toBe(issued.body.access_token);
    const me = await fetch(`${api.origin}/api/v1/users/me`, { headers: { authorization: `Bearer ${issued.body.access_token}` } });
    expect(me.status).toBe(200);
    // The name the user saw on the approval page came from client_id.
    const row = await (await db()).deviceAuthorization.findUnique({ where: { deviceCodeHash: hashSecret(code.body.device_code) } });
    expect(row?.clientName).toBe('acme-cli');

    await waitedInterval(code.body.device_code);
    const again = await poll(code.body.device_code);
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
  });

  it('answers access_denied, expired_token, invalid_grant, unsupported_grant_type and invalid_request, each a 400', async () => {
    const u = await testUser('oauth-device-2');
    const denied = (await form('/auth/device/code', { client_id: 'acme-cli' })).body;
    await decideDeviceAuthorization({ userCode: denied.user_code, userId: u.id, approve: false });
    expect((await poll(denied.device_code)).body).toMatchObject({ error: 'access_denied' });

    const old = (await form('/auth/device/code', { client_id: 'acme-cli' })).body;
    await (await db()).deviceAuthorization.update({ where: { userCode: old.user_code }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await poll(old.device_code);
    expect([expired.status, expired.body.error]).toEqual([400, 'expired_token']);

    const unknown = await poll('sb-dev-nope');
    expect([unknown.status, unknown.body.error]).toEqual([400, 'invalid_grant']);
    const wrongGrant = await poll(old.device_code, { grant_type: 'authorization_code' });
    expect([wrongGrant.status, wrongGrant.body.error]).toEqual([400, 'unsupported_grant_type']);
    const noCode = await form('/auth/device/token', { grant_type: DEVICE_CODE_GRANT_TYPE });
    expect([noCode.status, noCode.body.error]).toEqual([400, 'invalid_request']);
    const noGrant = await form('/auth/device/token', { device_code: old.device_code });
    expect([noGrant.status, noGrant.body.error]).toEqual([400, 'invalid_request']);
  });

  it('a JSON body with grant_type gets the OAuth answers too', async () => {
    const code = (await form('/auth/device/code', { client_id: 'acme-cli' })).body;
    const res = await fetch(`${api.origin}/api/v1/auth/device/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: DEVICE_CODE_GRANT_TYPE, device_code: code.device_code }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'authorization_pending' });
  });

  // openid-client waits the grant's 5 s interval before every poll (15 s for these two). What they check is the wire
  // format against a real client; the database behind it is the same code the polls above prove on both kinds, so
  // they run once, on the embedded database.
  if (kind === 'pglite') {
    it('openid-client runs the whole device authorization grant against our endpoints', async () => {
      const u = await testUser('openid-client');
      const server = { issuer: api.origin, device_authorization_endpoint: `${api.origin}/api/v1/auth/device/code`, token_endpoint: `${api.origin}/api/v1/auth/device/token` };
      const config = new oauth.Configuration(server, 'acme-cli', undefined, oauth.None());
      oauth.allowInsecureRequests(config); // the test server is plain http on 127.0.0.1
      // The user approves when the library has been told "authorization_pending" once: the library must
      // then keep polling at the interval and take the token.
      const pendingSeen: string[] = [];
      let userCode = '';
      config[oauth.customFetch] = async (url, options) => {
        const res = await fetch(url, options as RequestInit);
        const body = (await res.clone().json()) as { error?: string };
        if (body.error) pendingSeen.push(body.error);
        if (body.error === 'authorization_pending') await decideDeviceAuthorization({ userCode, userId: u.id, approve: true });
        return res;
      };
      const started = await oauth.initiateDeviceAuthorization(config, { scope: 'openid' });
      userCode = started.user_code;
      const tokens = await oauth.pollDeviceAuthorizationGrant(config, started);
      expect(pendingSeen).toEqual(['authorization_pending']);
      expect(tokens.token_type).toBe('bearer'); // openid-client lower-cases it
      expect(tokens.access_token).toMatch(/^sb-at-v1-/);
      const me = await fetch(`${api.origin}/api/v1/users/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      expect(((await me.json()) as { id: string }).id).toBe(u.id);
    }, 30_000);

    it('openid-client reports a denial as access_denied', async () => {
      const u = await testUser('openid-client-denied');
      const config = new oauth.Configuration(
        { issuer: api.origin, device_authorization_endpoint: `${api.origin}/api/v1/auth/device/code`, token_endpoint: `${api.origin}/api/v1/auth/device/token` },
        'acme-cli',
        undefined,
        oauth.None(),
      );
      oauth.allowInsecureRequests(config);
      const started = await oauth.initiateDeviceAuthorization(config, {});
      await decideDeviceAuthorization({ userCode: started.user_code, userId: u.id, approve: false });
      await expect(oauth.pollDeviceAuthorizationGrant(config, started)).rejects.toMatchObject({ error: 'access_denied' });
    }, 30_000);
  }
});
