import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { fundedUser } from '@/test/gateway-harness';

describeEachDatabase('REST /api/v1/api-keys', () => {
  let api: ApiServer;
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const call = (method: string, path: string, key: string | null, body?: unknown) =>
    fetch(`${api.origin}/api/v1${path}`, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('creates a key shown once, lists it without the secret, deletes it and the key stops working', async () => {
    const u = await fundedUser(5);
    const created = await call('POST', '/api-keys', u.key, { name: 'Laptop', credit_limit: 2.5, limit_reset: 'monthly', allowed_models: ['switchboard/echo'] });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(/^req_/);
    const { key, data } = await created.json();
    expect(key).toMatch(/^sk-sb-v1-/);
    expect(data).toMatchObject({ name: 'Laptop', credit_limit: 2.5, limit_reset: 'monthly', allowed_models: ['switchboard/echo'] });

    const list = await (await call('GET', '/api-keys', u.key)).json();
    expect(list.data.map((k: { id: string }) => k.id)).toContain(data.id);
    expect(JSON.stringify(list)).not.toContain(key);
    expect(JSON.stringify(list)).not.toMatch(/keyHash|[0-9a-f]{64}/);

    const chat = (k: string) => call('POST', '/chat/completions', k, { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect((await chat(key)).status).toBe(200);
    // a model outside the key's allow-list is refused
    expect((await call('POST', '/chat/completions', key, { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(403);

    expect((await call('DELETE', `/api-keys/${data.id}`, u.key)).status).toBe(200);
    const after = await chat(key);
    expect(after.status).toBe(401);
    expect((await after.json()).error.code).toBe(401);
  });

  it('400s on bad input, 401 without a key, 404 for a stranger deleting your key', async () => {
    const u = await fundedUser(1);
    const stranger = await fundedUser(1);
    expect((await call('POST', '/api-keys', u.key, { name: '' })).status).toBe(400);
    expect((await call('POST', '/api-keys', u.key, { name: 'x', credit_limit: -1 })).status).toBe(400);
    const bad = await call('POST', '/api-keys', u.key, '{not json' as unknown);
    expect(bad.status).toBe(400);
    expect((await call('GET', '/api-keys', null)).status).toBe(401);
    expect((await call('DELETE', `/api-keys/${u.apiKey.id}`, stranger.key)).status).toBe(404);
    const unknown = await call('GET', '/no-such-endpoint', u.key);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toMatch(/No endpoint/);
  });

  it('lists models publicly in OpenRouter shape', async () => {
    const res = await call('GET', '/models', null);
    const body = await res.json();
    const sonnet = body.data.find((m: { id: string }) => m.id === 'anthropic/claude-sonnet-4.5');
    expect(sonnet).toMatchObject({ supportsReasoning: true, supportsImages: true, context_length: 200000, supportsPdf: true, architecture: { input_modalities: ['text', 'image', 'file'] } });
    expect(Number(sonnet.pricing.prompt)).toBeCloseTo(0.000003, 9);
    const ids = body.data.map((m: { id: string }) => m.id);
    for (const id of ['openai/gpt-4o-mini', 'openai/gpt-5-mini', 'anthropic/claude-haiku-4.5', 'google/gemini-2.5-flash', 'google/gemini-2.5-pro', 'deepseek/deepseek-v4.1-flash', 'switchboard/echo']) {
      expect(ids).toContain(id);
    }
    // Renamed models stay reachable by their old ids, listed as aliases.
    expect(body.data.find((m: { id: string }) => m.id === 'deepseek/deepseek-v4.1-flash').aliases).toEqual(expect.arrayContaining(['deepseek/deepseek-chat', 'deepseek/deepseek-reasoner']));
  });
});
