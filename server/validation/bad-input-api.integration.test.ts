// Input that PostgreSQL, a JS Date, exact money or recursive code cannot hold is the caller's 400 with the
// spec's body on every route kind (bodies, path segments, query parameters, cursors), and a value stored
// before these checks existed never breaks a later read. Each case here answered 500 before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller } from '@/test/factories';
import { fundedUser } from '@/test/gateway-harness';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describeEachDatabase('bad input is a 400, never a 500', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());
  const call = apiCaller(() => api.origin);

  async function expect400(res: Response, message?: RegExp) {
    const body = await res.json();
    expect({ status: res.status, code: body.error?.code }).toEqual({ status: 400, code: 400 });
    expect(body.error.metadata.error_type).toBe('bad_request');
    if (message) expect(body.error.message).toMatch(message);
  }

  it('refuses NUL characters in bodies, path segments and query parameters', async () => {
    const u = await fundedUser(1);
    await expect400(await call('POST', '/api-keys', u.key, { name: 'a\u0000b' }), /name: must not contain NUL/);
    await expect400(await call('POST', '/organizations', u.key, { name: 'Org\u0000' }), /NUL/);
    await expect400(await call('PATCH', '/users/me', u.key, { name: '\u0000' }), /NUL/);
    await expect400(await call('DELETE', '/api-keys/%00', u.key), /key_id: must not contain NUL/);
    await expect400(await call('GET', '/organizations/%00', u.key), /NUL/);
    await expect400(await call('GET', '/generation?id=gen-%00', u.key), /NUL/);
    await expect400(await call('GET', `/users/${u.user.id}/usages?model=a%00b`, u.key), /NUL/);
  });

  it('refuses cursors that decode to a NUL id or an unrepresentable time', async () => {
    const u = await fundedUser(1);
    await expect400(await call('GET', `/users/${u.user.id}/usages?cursor=${b64('999999999999999:gen-1')}`, u.key), /cursor/);
    await expect400(await call('GET', `/users/${u.user.id}/usages?cursor=${b64('1700000000000:gen\u0000')}`, u.key), /cursor/);
    // Payment cursors that do not decode are refused too (they used to restart from the first page).
    for (const cursor of [b64('+275760-09-13T00:00:00.000Z|pay_1'), b64('2026-01-01T00:00:00.000Z|pay\u0000')]) {
      await expect400(await call('GET', `/users/${u.user.id}/payments?cursor=${cursor}`, u.key), /cursor/);
    }
  });

  it('refuses dates outside 0001–9999 (expires_at, from, to)', async () => {
    const u = await fundedUser(1);
    await expect400(await call('POST', '/api-keys', u.key, { name: 'far', expires_at: 8.64e15 }), /expires_at: must be a time between/);
    await expect400(await call('POST', '/api-keys', u.key, { name: 'far', expires_at: '+275760-09-13T00:00:00.000Z' }), /expires_at/);
    await expect400(await call('GET', `/users/${u.user.id}/usages?from=0000-01-01`, u.key), /from/);
    expect((await call('GET', `/users/${u.user.id}/usages?from=0001-01-01&to=9999-12-31`, u.key)).status).toBe(200);
  });

  it('refuses money beyond the micro-dollar or out of range', async () => {
    const u = await fundedUser(1);
    await expect400(await call('POST', '/api-keys', u.key, { name: 'tiny', credit_limit: 0.0000001 }), /credit_limit: Use at most six decimals/);
    await expect400(await call('POST', '/api-keys', u.key, { name: 'huge', credit_limit: 1e300 }), /credit_limit/);
    const ok = await call('POST', '/api-keys', u.key, { name: 'exact', credit_limit: 0.000001 });
    expect(ok.status).toBe(201);
    expect((await ok.json()).data.credit_limit).toBe(0.000001);
    await expect400(await call('PUT', `/users/${u.user.id}/auto-top-up`, u.key, { enabled: true, threshold: 5.001 }), /threshold/);
  });

  it('a stored expires_at no JS Date can hold does not break the key listing', async () => {
    const u = await fundedUser(1);
    // As one member could write it before expires_at was bounded.
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: u.apiKey.id }, data: { expiresAt: new Date(8.64e15) } });
    const list = await call('GET', '/api-keys', u.key);
    expect(list.status).toBe(200);
    const row = (await list.json()).data.find((k: { id: string }) => k.id === u.apiKey.id);
    expect(row.expires_at).toBeNull();
  });

  it('refuses JSON nested thousands of levels deep (chat tool schemas, response_format, REST bodies)', async () => {
    const u = await fundedUser(1);
    const deep = '{"type":"object","properties":{"a":'.repeat(3000) + '{}' + '}}'.repeat(3000);
    const send = (path: string, raw: string) =>
      fetch(`${api.origin}/api/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${u.key}`, 'content-type': 'application/json' }, body: raw });
    const chat = (extra: string) => `{"model":"switchboard/echo","stream":false,"messages":[{"role":"user","content":"hi"}],${extra}}`;
    await expect400(await send('/chat/completions', chat(`"tools":[{"type":"function","function":{"name":"f","parameters":${deep}}}]`)), /tools\.0\.function\.parameters: must not be nested/);
    await expect400(await send('/chat/completions', chat(`"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":${deep}}}`)), /nested/);
    await expect400(await send('/api-keys', `{"name":"x","allowed_models":${'['.repeat(5000)}${']'.repeat(5000)}}`), /nested more than 64/);
  });
});
