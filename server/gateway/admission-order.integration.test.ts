// Admission through real HTTP when the key is checked late: for an API key with a small body the gateway
// validates the request first and then authenticates, authorizes and reserves in one statement
// (admit.ts → ledger/reserve-for-api-key.ts). The caller must not be able to tell: refusals come in
// admission order (401, 429, 400/404/413/415, 403, 400/503, 402) and a refused request holds nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { generateSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('chat completions: admission order', () => {
  let h: GatewayHarness;
  let u: Awaited<ReturnType<typeof fundedUser>>;

  beforeAll(async () => {
    h = await startGatewayHarness();
    u = await fundedUser(10);
  });
  afterAll(() => h?.close());

  const post = (body: unknown, key: string | null) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const status = async (res: Response) => {
    const body = await res.json();
    return { status: res.status, type: body.error?.metadata?.error_type, message: body.error?.message as string | undefined };
  };
  const echo = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false };
  const image = { model: 'deepseek/deepseek-v4-pro', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }], stream: false };
  const reserved = async () => (await getBalanceOrThrow(u.user.personal_account_id)).reservedMicros;

  it('a well-formed but unknown, deleted or expired key is 401 whatever else is wrong with the request', async () => {
    const unknown = generateSecret(TOKEN_PREFIX.apiKey);
    expect(await status(await post('{"model": ', unknown))).toMatchObject({ status: 401 });
    expect(await status(await post({ ...echo, model: 'nope/nope' }, unknown))).toMatchObject({ status: 401 });
    expect(await status(await post(echo, unknown))).toMatchObject({ status: 401, message: 'Invalid API key' });

    const { key, apiKey } = await createApiKey({ userId: u.user.id, input: { name: 'short-lived' } });
    expect((await post(echo, key)).status).toBe(200);
    await (await db()).apiKey.update({ where: { id: apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await status(await post(echo, key))).toMatchObject({ status: 401, message: 'This API key has expired' });
    expect(await status(await post('{"model": ', key))).toMatchObject({ status: 401, message: 'This API key has expired' });

    const other = await createApiKey({ userId: u.user.id, input: { name: 'deleted' } });
    await deleteApiKey({ userId: u.user.id, keyId: other.apiKey.id });
    expect(await status(await post(echo, other.key))).toMatchObject({ status: 401, message: 'Invalid API key' });
    expect(await status(await post(image, other.key))).toMatchObject({ status: 401 });
  });

  it('a key limited to other models: 404 for an unknown model first, then 403 before capability errors, and nothing reserved', async () => {
    const { key } = await createApiKey({ userId: u.user.id, input: { name: 'limited', allowed_models: ['openai/gpt-4o-mini'] } });
    await h.runtime.settlements.flush();
    const before = await reserved();
    expect(await status(await post({ ...echo, model: 'nope/nope' }, key))).toMatchObject({ status: 404 });
    expect(await status(await post(image, key))).toMatchObject({ status: 403, type: 'forbidden' });
    expect(await status(await post(echo, key))).toMatchObject({ status: 403, type: 'forbidden' });
    expect(await reserved()).toBe(before);
    // The same key with a valid request for the other model still passes the capability check: 400.
    expect(await status(await post({ ...image, model: 'deepseek/deepseek-v4-pro' }, u.key))).toMatchObject({ status: 400 });
  });

  it('a key allowed a model by its old id (now an alias) may still use it, on both admission paths', async () => {
    h.respond = replay('openai', 'text');
    const { key } = await createApiKey({ userId: u.user.id, input: { name: 'old id', allowed_models: ['deepseek/deepseek-chat'] } });
    const body = { model: 'deepseek/deepseek-chat', messages: [{ role: 'user', content: 'hi' }], stream: false };
    const res = await post(body, key);
    expect(res.status).toBe(200);
    expect((await res.json()).model).toBe('deepseek/deepseek-v4.1-flash');
    // The canonical id is the same model: allowed too.
    expect((await post({ ...body, model: 'deepseek/deepseek-v4.1-flash' }, key)).status).toBe(200);
    expect(await status(await post({ ...body, model: 'deepseek/deepseek-v4-pro' }, key))).toMatchObject({ status: 403 });
  });

  it('429 only for a valid key over its limit; an invalid key is still 401', async () => {
    await h.renewRuntime({ rateLimitRpm: 2, redisUrl: null }); // counted in memory: a new Redis connection counts locally until ready
    try {
      const unknown = generateSecret(TOKEN_PREFIX.apiKey);
      const { key } = await createApiKey({ userId: u.user.id, input: { name: 'limited-rate' } });
      for (let i = 0; i < 2; i++) expect((await post(echo, key)).status).toBe(200);
      expect(await status(await post(echo, key))).toMatchObject({ status: 429 });
      expect(await status(await post('{"model": ', key))).toMatchObject({ status: 429 });
      for (let i = 0; i < 4; i++) expect((await post(echo, unknown)).status).toBe(401);
    } finally {
      await h.renewRuntime();
    }
  });

  it('402 when the account cannot cover the worst case, with nothing held; a large body takes the other path to the same answers', async () => {
    const poor = await fundedUser(0);
    expect(await status(await post(echo, poor.key))).toMatchObject({ status: 402, type: 'payment_required' });
    expect((await getBalanceOrThrow(poor.user.personal_account_id)).reservedMicros).toBe(0n);
    const big = { ...echo, messages: [{ role: 'user', content: 'x'.repeat(300 * 1024) }] };
    expect(await status(await post(big, poor.key))).toMatchObject({ status: 402 });
    expect(await status(await post(big, generateSecret(TOKEN_PREFIX.apiKey)))).toMatchObject({ status: 401 });
    const ok = await post(big, u.key);
    expect(ok.status).toBe(200);
    await ok.text();
  });
});
