// PATCH /api/v1/api-keys/{key_id} through HTTP: each field and its effect as GET /api-keys shows it, who may
// change a key (as for deletion), the audit entry, and a disabled key refused with 403 on REST routes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('REST PATCH /api/v1/api-keys/{key_id}', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const listed = async (token: string, id: string) => (await call('GET', '/api-keys', token)).body.data.find((k: { id: string }) => k.id === id);

  it('takes rate limits at creation and shows the new fields in the key record', async () => {
    const u = await testUser('creator');
    const created = await call('POST', '/api-keys', u.token, { name: 'Limited', rate_limit_rpm: 30, rate_limit_tpm: 50_000 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ rate_limit_rpm: 30, rate_limit_tpm: 50_000, disabled: false, disabled_at: null });
    const plain = await call('POST', '/api-keys', u.token, { name: 'Plain' });
    expect(plain.body.data).toMatchObject({ rate_limit_rpm: null, rate_limit_tpm: null });
    for (const bad of [{ rate_limit_rpm: 0 }, { rate_limit_rpm: 1.5 }, { rate_limit_tpm: -1 }, { rate_limit_rpm: '10' }]) {
      expect((await call('POST', '/api-keys', u.token, { name: 'x', ...bad })).status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('changes each field, the change visible in GET /api-keys; null clears a limit, the expiry, a rate limit', async () => {
    const u = await testUser('patcher');
    const { apiKey } = await createApiKey({ userId: u.id, input: { name: 'Before', credit_limit: 1, limit_reset: 'daily', allowed_models: ['switchboard/echo'] } });
    const patch = (body: unknown) => call('PATCH', `/api-keys/${apiKey.id}`, u.token, body);
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();

    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: 'After' }, { name: 'After' }],
      [{ credit_limit: 2.5 }, { credit_limit: 2.5 }],
      [{ limit_reset: 'monthly' }, { limit_reset: 'monthly' }],
      [{ expires_at: expires }, { expires_at: expires }],
      [{ allowed_models: ['switchboard/echo', 'openai/gpt-4o-mini'] }, { allowed_models: ['switchboard/echo', 'openai/gpt-4o-mini'] }],
      [{ rate_limit_rpm: 12, rate_limit_tpm: 3_000 }, { rate_limit_rpm: 12, rate_limit_tpm: 3_000 }],
      [{ credit_limit: null, expires_at: null, rate_limit_rpm: null, rate_limit_tpm: null, allowed_models: [] }, { credit_limit: null, expires_at: null, rate_limit_rpm: null, rate_limit_tpm: null, allowed_models: [] }],
    ];
    for (const [body, expected] of steps) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.data).toMatchObject(expected);
      expect(await listed(u.token, apiKey.id)).toMatchObject(expected);
    }
    // Fields not sent keep their values.
    expect(await listed(u.token, apiKey.id)).toMatchObject({ name: 'After', limit_reset: 'monthly', disabled: false });
  });

  it('refuses bad input with the spec error body', async () => {
    const u = await testUser('validator');
    const { apiKey } = await createApiKey({ userId: u.id, input: { name: 'k' } });
    const patch = (body: unknown) => call('PATCH', `/api-keys/${apiKey.id}`, u.token, body);
    for (const bad of [{}, { enabled: true }, { name: '' }, { credit_limit: 0 }, { limit_reset: 'yearly' }, { rate_limit_rpm: 0 }, { rate_limit_tpm: 2.5 }, { disabled: 'yes' }, { expires_at: '2001-01-01T00:00:00Z' }]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, message: expect.any(String), metadata: expect.any(Object) });
    }
    expect((await patch({ expires_at: '2001-01-01T00:00:00Z' })).body.error.message).toMatch(/future/);
    expect((await call('PATCH', '/api-keys/no-such-key', u.token, { name: 'x' })).status).toBe(404);
  });

  it('disabling refuses the key with 403 on every REST route; enabling restores it', async () => {
    const u = await testUser('switch');
    const { key, apiKey } = await createApiKey({ userId: u.id, input: { name: 'Switchable' } });
    expect((await call('GET', '/users/me', key)).status).toBe(200);

    const off = await call('PATCH', `/api-keys/${apiKey.id}`, u.token, { disabled: true });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ disabled: true, disabled_at: expect.any(String) });
    const disabledAt = off.body.data.disabled_at;

    for (const [method, path] of [['GET', '/users/me'], ['GET', '/api-keys'], ['GET', '/key'], ['GET', '/credits'], ['GET', '/users/me/balance'], ['POST', '/api-keys'], ['PATCH', `/api-keys/${apiKey.id}`]] as const) {
      const res = await call(method, path, key, method === 'GET' ? undefined : { name: 'x', disabled: false });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 403, message: expect.stringMatching(/^This API key is disabled/), metadata: { reason: 'key_disabled', key_id: apiKey.id } });
    }
    // Disabling again keeps the first time.
    expect((await call('PATCH', `/api-keys/${apiKey.id}`, u.token, { disabled: true })).body.data.disabled_at).toBe(disabledAt);

    const on = await call('PATCH', `/api-keys/${apiKey.id}`, u.token, { disabled: false });
    expect(on.body.data).toMatchObject({ disabled: false, disabled_at: null });
    expect((await call('GET', '/users/me', key)).status).toBe(200);
  });

  it('who may: the creator and organization owners/admins; members 403 on others’ keys; strangers 404', async () => {
    const w = await organizationWorld('Keyed');
    const memberKey = await createApiKey({ userId: w.member.id, input: { name: 'member org key', account_id: w.organizationId } });
    const adminKey = await createApiKey({ userId: w.admin.id, input: { name: 'admin org key', account_id: w.organizationId } });
    const personal = await createApiKey({ userId: w.member.id, input: { name: 'member personal' } });

    expect((await call('PATCH', `/api-keys/${memberKey.apiKey.id}`, w.member.token, { name: 'mine' })).status).toBe(200);
    expect((await call('PATCH', `/api-keys/${memberKey.apiKey.id}`, w.admin.token, { disabled: true })).body.data.disabled).toBe(true);
    expect((await call('PATCH', `/api-keys/${memberKey.apiKey.id}`, w.owner.token, { credit_limit: 5 })).body.data.credit_limit).toBe(5);
    const refused = await call('PATCH', `/api-keys/${adminKey.apiKey.id}`, w.member.token, { disabled: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ required_permission: 'keys:manage-all' });
    expect((await call('PATCH', `/api-keys/${adminKey.apiKey.id}`, w.billing.token, { name: 'x' })).status).toBe(403);
    // Someone else's personal key: admins of an organization have no say on it, strangers learn nothing.
    expect((await call('PATCH', `/api-keys/${personal.apiKey.id}`, w.admin.token, { name: 'x' })).status).toBe(404);
    expect((await call('PATCH', `/api-keys/${memberKey.apiKey.id}`, w.stranger.token, { name: 'x' })).status).toBe(404);
    // An organization's API key acts for that organization only: the creator's personal key is out of its reach.
    expect((await call('PATCH', `/api-keys/${personal.apiKey.id}`, adminKey.key, { name: 'x' })).status).toBe(404);
    expect((await call('PATCH', `/api-keys/${adminKey.apiKey.id}`, adminKey.key, { name: 'renamed by itself' })).status).toBe(200);
    // A deleted key cannot be changed.
    await call('DELETE', `/api-keys/${memberKey.apiKey.id}`, w.member.token);
    expect((await call('PATCH', `/api-keys/${memberKey.apiKey.id}`, w.member.token, { disabled: false })).status).toBe(404);
  });

  it('records who changed what in the audit log (before and after, never the secret or its hash)', async () => {
    const u = await testUser('audited');
    const { key, apiKey } = await createApiKey({ userId: u.id, input: { name: 'Audited' } });
    await call('PATCH', `/api-keys/${apiKey.id}`, u.token, { name: 'Audited 2', rate_limit_rpm: 5 });
    const prisma = await db();
    const entries = await prisma.auditLogEntry.findMany({ where: { accountId: u.personalAccountId, action: 'api_key.update' } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ targetType: 'api_key', targetId: apiKey.id, before: expect.objectContaining({ name: 'Audited', rate_limit_rpm: null }), after: expect.objectContaining({ name: 'Audited 2', rate_limit_rpm: 5 }) });
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: apiKey.id }, select: { keyHash: true } });
    expect(JSON.stringify(entries[0])).not.toContain(key);
    expect(JSON.stringify(entries[0])).not.toContain(row.keyHash);
    // A refused change records nothing.
    await call('PATCH', `/api-keys/${apiKey.id}`, u.token, { rate_limit_rpm: 0 });
    expect(await prisma.auditLogEntry.count({ where: { accountId: u.personalAccountId, action: 'api_key.update' } })).toBe(1);
  });
});
