// Per-key controls enforced at admission, proven through HTTP on the chat endpoint: a spend cap per
// day/week/month (402 with reason key_limit, lifted when the window rolls over), key expiry (401) and the
// allowed-models list (403). The built-in echo model needs no upstream.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestUser } from '@/test/factories';
import { currentWindowStart, type LimitReset } from './reserve';

// Echo costs $1/M tokens both ways: max_tokens 1000 holds 1000 µ$ + the prompt estimate (6 µ$ for "hi").
const chat = (origin: string, key: string, body: Record<string, unknown> = {}) =>
  fetch(`${origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false, max_tokens: 400, ...body }),
  });

describeEachDatabase('per-key limits through HTTP', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(async () => {
    await api.runtime.settlements.flush();
    await api?.close();
  });

  it('a request whose worst case exceeds the key’s cap is 402 key_limit, though the account could pay', async () => {
    const u = await createTestUser(10);
    const k = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 0.001, limit_reset: 'daily' });
    const refused = await chat(api.origin, k.key, { max_tokens: 1000 });
    expect(refused.status).toBe(402);
    const body = await refused.json();
    expect(body.error).toMatchObject({ code: 402, metadata: { reason: 'key_limit', key_limit: 0.001 } });
    expect(body.error.message).toMatch(/per day/);
    expect((await chat(api.origin, k.key, { max_tokens: 400 })).status).toBe(200);
    // the account's own balance is a different refusal (no key_limit reason)
    const poor = await createTestUser(0.0001);
    const broke = await chat(api.origin, poor.key);
    expect(broke.status).toBe(402);
    expect((await broke.json()).error.metadata.reason).toBeUndefined();
  });

  for (const reset of ['daily', 'weekly', 'monthly', 'never'] as const) {
    it(`a ${reset} cap: spent in the current window → 402; spent in the previous window → admitted again`, async () => {
      const u = await createTestUser(10);
      const k = await createTestKey(u.user.id, u.user.personal_account_id, { credit_limit: 0.002, limit_reset: reset });
      const prisma = await db();
      const windowStart = currentWindowStart(reset.toUpperCase() as LimitReset, new Date());
      await prisma.apiKey.update({ where: { id: k.id }, data: { windowSpentMicros: 1_800n, windowStartedAt: windowStart } });
      const full = await chat(api.origin, k.key);
      expect(full.status).toBe(402);
      expect((await full.json()).error.metadata.reason).toBe('key_limit');

      // The spend happened just before the current window began (for NEVER, whose one window runs from
      // the epoch, a year ago: still the same window).
      const earlier = reset === 'never' ? new Date(Date.now() - 365 * 86_400_000) : new Date(windowStart.getTime() - 1);
      await prisma.apiKey.update({ where: { id: k.id }, data: { windowStartedAt: earlier } });
      const next = await chat(api.origin, k.key);
      expect(next.status).toBe(reset === 'never' ? 402 : 200);
      if (reset !== 'never') {
        await api.runtime.settlements.flush();
        const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: k.id } });
        expect(key.windowStartedAt).toEqual(windowStart);
        expect(key.windowSpentMicros).toBeLessThan(1_800n); // the new window holds only this request's cost
        expect(key.windowSpentMicros).toBeGreaterThan(0n);
      }
    });
  }

  it('an expired key is 401 from the moment it expires', async () => {
    const u = await createTestUser(1);
    const { key, id } = await (async () => {
      const k = await createTestKey(u.user.id, u.user.personal_account_id);
      await (await db()).apiKey.update({ where: { id: k.id }, data: { expiresAt: new Date(Date.now() + 60_000) } });
      return k;
    })();
    expect((await chat(api.origin, key)).status).toBe(200);
    await (await db()).apiKey.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const res = await chat(api.origin, key);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toMatchObject({ code: 401, message: expect.stringMatching(/expired/) });
  });

  it('a model outside the key’s allowed list is 403 and reserves nothing', async () => {
    const u = await createTestUser(1);
    const k = await createTestKey(u.user.id, u.user.personal_account_id, { allowed_models: ['switchboard/echo'] });
    const res = await chat(api.origin, k.key, { model: 'openai/gpt-4o-mini' });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatchObject({ code: 403, metadata: { model: 'openai/gpt-4o-mini' } });
    expect(await (await db()).reservation.count({ where: { apiKeyId: k.id } })).toBe(0);
    expect((await chat(api.origin, k.key)).status).toBe(200);
  });
});
