// Key rotation: POST /api/v1/api-keys/{key_id}/rotate through HTTP (the new secret shown once, who may, bad
// input), and its effect on the two places that authenticate a key by hash: authenticateBearer (REST) and
// the chat path's one admission statement (reserveForApiKey → RESERVE_SQL). Times are passed explicitly, so
// "after the grace period" is checked without waiting.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLogQuery, listAuditLog } from '@/server/audit/list-audit-log';
import { authenticateBearer } from '@/server/auth/authenticate-bearer';
import { hashSecret } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { reserveForApiKey } from '@/server/ledger/reserve-for-api-key';
import { jsonClient, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';
import { createApiKey } from './create-api-key';
import { rotateApiKey } from './rotate-api-key';
import { updateApiKey } from './update-api-key';

const admit = (key: string, now: Date) =>
  reserveForApiKey({ keyHash: hashSecret(key), model: 'openai/gpt-4o-mini', provider: 'openai', generationId: `gen-${randomUUID()}`, amountMicros: 1_000n }, now);
const bearer = (key: string) => `Bearer ${key}`;

describeEachDatabase('API key rotation', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  it('REST: a new secret in the response only; same id, settings and counters; the old one refused at once by default', async () => {
    const u = await testUser('rotator');
    const { key: oldKey, apiKey } = await createApiKey({ userId: u.id, input: { name: 'Rotating', credit_limit: 3, limit_reset: 'daily', allowed_models: ['openai/gpt-4o-mini'], rate_limit_rpm: 40 } });
    const res = await call('POST', `/api-keys/${apiKey.id}/rotate`, u.token, {});
    expect(res.status).toBe(200);
    expect(res.body.key).toMatch(/^sk-sb-v1-/);
    expect(res.body.key).not.toBe(oldKey);
    expect(res.body.data).toMatchObject({ id: apiKey.id, name: 'Rotating', credit_limit: 3, limit_reset: 'daily', allowed_models: ['openai/gpt-4o-mini'], rate_limit_rpm: 40, previous_key: null });
    expect(res.body.data.hint).not.toBe(apiKey.hint);
    // Shown once: the list never holds the secret (nor its hash).
    const listed = await call('GET', '/api-keys', u.token);
    expect(JSON.stringify(listed.body)).not.toContain(res.body.key);
    expect(JSON.stringify(listed.body)).not.toContain(hashSecret(res.body.key));
    expect((await call('GET', '/users/me', res.body.key)).status).toBe(200);
    const refused = await call('GET', '/users/me', oldKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 401, message: 'Invalid API key' });
    // Audited like the other key actions, without secrets.
    const log = await listAuditLog({ accountId: u.personalAccountId, query: auditLogQuery.parse({ action: 'api_key.rotate' }) });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ action: 'api_key.rotate', target: { type: 'api_key', id: apiKey.id } });
    expect(JSON.stringify(log.data[0])).not.toContain(res.body.key);
  });

  it('REST: bad input is a 400 with the spec body; a stranger gets 404', async () => {
    const u = await testUser('rot-validate');
    const stranger = await testUser('rot-stranger');
    const { apiKey } = await createApiKey({ userId: u.id, input: { name: 'k' } });
    for (const bad of [{ grace_period_seconds: -1 }, { grace_period_seconds: 1.5 }, { grace_period_seconds: 31 * 86_400 }, { grace_period_seconds: '60' }, { grace: 60 }]) {
      const res = await call('POST', `/api-keys/${apiKey.id}/rotate`, u.token, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, message: expect.any(String), metadata: expect.any(Object) });
    }
    expect((await call('POST', `/api-keys/${apiKey.id}/rotate`, stranger.token, {})).status).toBe(404);
    expect((await call('POST', '/api-keys/no-such-key/rotate', u.token, {})).status).toBe(404);
  });

  it('with a grace period both secrets work, sharing the key’s window, until it ends; then the old one is refused', async () => {
    const u = await createTestUser(5);
    const { key: oldKey, apiKey } = await createApiKey({ userId: u.user.id, input: { name: 'graceful', credit_limit: 1 } });
    const t0 = new Date();
    const { key: newKey, apiKey: rotated } = await rotateApiKey({ userId: u.user.id, keyId: apiKey.id, input: { grace_period_seconds: 3600 }, now: t0 });
    expect(rotated.previous_key).toEqual({ hint: apiKey.hint, expires_at: new Date(t0.getTime() + 3_600_000).toISOString() });

    const during = new Date(t0.getTime() + 3_599_000);
    for (const key of [oldKey, newKey]) {
      const a = await admit(key, during);
      expect(a.admitted).toBe(true);
      expect(a.principal.apiKey?.id).toBe(apiKey.id);
      expect((await authenticateBearer(bearer(key), during)).apiKey?.id).toBe(apiKey.id);
    }
    // One row, one window: both secrets' holds are on the same key.
    const row = await (await db()).apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    expect(row.windowSpentMicros).toBe(2_000n);

    const after = new Date(t0.getTime() + 3_600_000);
    await expect(admit(oldKey, after)).rejects.toMatchObject({ code: 'unauthorized', message: 'Invalid API key' });
    await expect(authenticateBearer(bearer(oldKey), after)).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await admit(newKey, after)).admitted).toBe(true);
    expect((await authenticateBearer(bearer(newKey), after)).apiKey?.id).toBe(apiKey.id);
  });

  it('grace period 0 revokes the old secret on the very next request (REST and the chat path)', async () => {
    const u = await createTestUser(5);
    const now = new Date();
    expect((await admit(u.key, now)).admitted).toBe(true);
    const { key: newKey } = await rotateApiKey({ userId: u.user.id, keyId: u.apiKeyId, input: { grace_period_seconds: 0 }, now });
    await expect(admit(u.key, now)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticateBearer(bearer(u.key), now)).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await admit(newKey, now)).admitted).toBe(true);
  });

  it('rotating again ends the earlier grace period at once; the key’s own state (disabled, expiry) applies to every secret', async () => {
    const u = await createTestUser(5);
    const now = new Date();
    const first = await rotateApiKey({ userId: u.user.id, keyId: u.apiKeyId, input: { grace_period_seconds: 600 }, now });
    const second = await rotateApiKey({ userId: u.user.id, keyId: u.apiKeyId, input: { grace_period_seconds: 600 }, now });
    await expect(admit(u.key, now)).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await admit(first.key, now)).admitted).toBe(true);
    expect((await admit(second.key, now)).admitted).toBe(true);

    await updateApiKey({ userId: u.user.id, keyId: u.apiKeyId, input: { disabled: true } });
    for (const key of [first.key, second.key]) {
      await expect(admit(key, now)).rejects.toMatchObject({ code: 'forbidden' });
      await expect(authenticateBearer(bearer(key), now)).rejects.toMatchObject({ code: 'forbidden' });
    }
    await updateApiKey({ userId: u.user.id, keyId: u.apiKeyId, input: { disabled: false, expires_at: new Date(now.getTime() + 60_000).toISOString() } });
    const later = new Date(now.getTime() + 120_000);
    for (const key of [first.key, second.key]) await expect(admit(key, later)).rejects.toMatchObject({ code: 'unauthorized', message: 'This API key has expired' });
  });
});
