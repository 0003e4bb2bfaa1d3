// The admin API through HTTP: who may use it (operators by flag or ADMIN_EMAILS, with their own credentials),
// what it does to the routing table this instance serves, and that provider keys never come back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createTestKey, createTestOrganization } from '@/test/factories';
import { loadAdminEntries, routingRevision } from './routing-store';

const SECRET = 'sk-admin-literal-SECRET-0123456789';
const ADMIN_EMAIL = `Chief-${process.pid}@Example.com`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-admin-api-'));
const configFile = path.join(dir, 'switchboard.yaml');
writeFileSync(
  configFile,
  [
    'providers:',
    '  - { id: file-prov, type: openai-compatible, base_url: "http://127.0.0.1:9/v1", keys: [{ key_env: FILE_PROV_KEY }] }',
    'models:',
    '  - id: filed/model',
    '    name: Filed',
    '    context_length: 1000',
    '    max_output_tokens: 100',
    '    endpoints: [{ provider: file-prov, upstream_model: m, pricing: { input: 1, output: 2 } }]',
  ].join('\n'),
);
const saved = { SWITCHBOARD_CONFIG: process.env.SWITCHBOARD_CONFIG, ADMIN_EMAILS: process.env.ADMIN_EMAILS, GROQ_API_KEY: process.env.GROQ_API_KEY };
delete process.env.GROQ_API_KEY; // an unconfigured built-in, until a test sets it
// Before the process runtime exists: it reads them when the first admin request creates it.
process.env.SWITCHBOARD_CONFIG = configFile;
process.env.ADMIN_EMAILS = ` someone@example.com , ${ADMIN_EMAIL} `;
process.env.ACME_KEY_VAR = 'sk-from-variable-0123456789';
process.env.FILE_PROV_KEY = 'sk-file-prov';
resetEnvCache();

afterAll(async () => {
  await processRuntime().close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  rmSync(dir, { recursive: true, force: true });
});

const model = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Model ${id}`,
  context_length: 128_000,
  max_output_tokens: 16_384,
  endpoints: [{ provider: 'acme-a', upstream_model: 'gpt-4o-mini', pricing: { input: 0.15, output: 0.6, cache_read: 0.075 } }],
  ...extra,
});
const provider = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'openai-compatible',
  base_url: 'http://127.0.0.1:9/v1',
  keys: [{ key_env: 'ACME_KEY_VAR' }, { id: 'lit', key: SECRET, weight: 3 }],
  ...extra,
});
const enc = encodeURIComponent;

describeEachDatabase('admin API', (kind) => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let stranger: TestUser;
  let flagged: TestUser;
  let listed: TestUser;
  let organizationKey: string;
  let personalKey: string;

  beforeAll(async () => {
    api = await startApiServer();
    // The process runtime outlives the first database's suite: forget what it loaded from that one.
    await processRuntime().routing.reload();
    [stranger, flagged, listed] = await Promise.all([testUser('stranger'), testUser('flagged'), testUser('listed', ADMIN_EMAIL.toLowerCase())]);
    await setOperator({ email: flagged.email, operator: true });
    const org = await createTestOrganization({ members: [{ userId: flagged.id, role: 'OWNER' }] });
    organizationKey = (await createTestKey(flagged.id, org.id)).key;
    personalKey = (await createTestKey(flagged.id, flagged.personalAccountId)).key;
  });
  afterAll(() => api?.close());

  const everyAdminRoute: [string, string, unknown?][] = [
    ['GET', '/admin/models'],
    ['POST', '/admin/models', model('acme/denied')],
    ['GET', `/admin/models/${enc('switchboard/echo')}`],
    ['PUT', `/admin/models/${enc('acme/denied')}`, model('acme/denied')],
    ['DELETE', `/admin/models/${enc('switchboard/echo')}`],
    ['GET', '/admin/providers'],
    ['POST', '/admin/providers', provider('denied')],
    ['GET', '/admin/providers/echo'],
    ['PUT', '/admin/providers/denied', provider('denied')],
    ['DELETE', '/admin/providers/echo'],
    ['GET', '/admin/no-such-route'],
  ];

  it('everyone but an operator gets 403 (the spec body) on every admin route; no credential is 401', async () => {
    for (const [method, route, body] of everyAdminRoute) {
      for (const token of [stranger.token, organizationKey]) {
        const res = await call(method, route, token, body);
        expect(res.status, `${method} ${route}`).toBe(403);
        expect(res.body.error).toMatchObject({ code: 403, message: expect.stringMatching(/^Operators only/), metadata: { error_type: 'forbidden' } });
      }
      expect((await call(method, route, null, body)).status).toBe(401);
    }
    const refused = await call('GET', '/admin/models', organizationKey);
    expect(refused.body.error.message).toMatch(/organization acts for it/);
    // Nothing was written by the refused requests.
    expect((await loadAdminEntries()).models.map((m) => m.id)).not.toContain('acme/denied');
  });

  it('operators by flag (auth token or personal API key) and by ADMIN_EMAILS (any case) get 200; a revoked flag is a 403 on the next request', async () => {
    for (const token of [flagged.token, personalKey, listed.token]) {
      expect((await call('GET', '/admin/models', token)).status).toBe(200);
      expect((await call('GET', '/admin/providers', token)).status).toBe(200);
    }
    expect((await call('GET', '/admin/no-such-route', flagged.token)).status).toBe(404); // an operator learns the route does not exist
    const revoked = await testUser('revoked');
    await setOperator({ email: revoked.email, operator: true });
    expect((await call('GET', '/admin/models', revoked.token)).status).toBe(200);
    await setOperator({ email: revoked.email, operator: false });
    expect((await call('GET', '/admin/models', revoked.token)).status).toBe(403);
  });

  it('a provider with a literal key: stored encrypted, never returned, and served by this instance at once', async () => {
    const before = await routingRevision();
    const created = await call('POST', '/admin/providers', flagged.token, provider('acme-a', { name: 'Acme A' }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      id: 'acme-a', source: 'admin', read_only: false, active: true, configured: true,
      keys: [{ id: 'ACME_KEY_VAR', key_env: 'ACME_KEY_VAR', weight: 1 }, { id: 'lit', weight: 3, stored: true, key_hint: 'sk-…6789' }],
      health: { ACME_KEY_VAR: 'healthy', lit: 'healthy' },
    });
    expect(await routingRevision()).toBeGreaterThan(before);
    for (const res of [created, await call('GET', '/admin/providers/acme-a', flagged.token), await call('GET', '/admin/providers', flagged.token)]) {
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      expect(JSON.stringify(res.body)).not.toContain('sk-from-variable');
    }
    const row = await (await db()).routingEntry.findUniqueOrThrow({ where: { kind_id: { kind: 'PROVIDER', id: 'acme-a' } } });
    expect(JSON.stringify(row.config)).not.toContain(SECRET);
    expect(JSON.stringify(row.config)).toMatch(/"key_secret":"v1:/);
    const loaded = (await loadAdminEntries()).providers.find((p) => p.id === 'acme-a')!;
    expect(loaded.keys.find((k) => k.id === 'lit')?.key).toBe(SECRET);
    const served = processRuntime().routing.table().providers.get('acme-a')!;
    expect(served.keys.map((k) => [k.id, k.apiKey])).toEqual([['ACME_KEY_VAR', 'sk-from-variable-0123456789'], ['lit', SECRET]]);
  });

  it('a PUT naming a stored key by id keeps its secret (weights edited without re-sending it); an unknown one is a 400', async () => {
    const shown = (await call('GET', '/admin/providers/acme-a', flagged.token)).body.data;
    const edited = { ...shown, keys: shown.keys.map((k: { weight: number }) => ({ ...k, weight: k.weight * 2 })) };
    const res = await call('PUT', '/admin/providers/acme-a', flagged.token, edited); // the GET's output fields go back too
    expect(res.status).toBe(200);
    expect(res.body.data.keys).toEqual([{ id: 'ACME_KEY_VAR', key_env: 'ACME_KEY_VAR', weight: 2 }, { id: 'lit', weight: 6, stored: true, key_hint: 'sk-…6789' }]);
    expect(processRuntime().routing.table().providers.get('acme-a')!.keys.find((k) => k.id === 'lit')).toMatchObject({ apiKey: SECRET, weight: 6 });
    const unknown = await call('PUT', '/admin/providers/acme-a', flagged.token, { ...edited, keys: [{ id: 'nope', stored: true }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/keys\.0: provider acme-a has no stored key "nope"/);
  });

  it('models: create → listed as admin → edit → delete; encoded ids; POST of an existing id is a 409', async () => {
    const created = await call('POST', '/admin/models', flagged.token, model('acme/fast', { aliases: ['acme/quick'] }));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 'acme/fast', source: 'admin', read_only: false, active: true, endpoints: [{ provider: 'acme-a', pricing: { input: 0.15, output: 0.6, cache_read: 0.075 } }] });
    const list = await call('GET', '/admin/models', listed.token);
    expect(list.body.data.find((m: { id: string }) => m.id === 'acme/fast')).toMatchObject({ source: 'admin', read_only: false });
    expect(list.body.data.find((m: { id: string }) => m.id === 'filed/model')).toMatchObject({ source: 'file', read_only: true });
    expect(list.body.data.find((m: { id: string }) => m.id === 'openai/gpt-4o-mini')).toMatchObject({ source: 'builtin', read_only: false });

    const edited = await call('PUT', `/admin/models/${enc('acme/fast')}`, flagged.token, { ...created.body.data, id: undefined, name: 'Acme Faster' });
    expect(edited.status).toBe(200);
    expect((await call('GET', `/admin/models/${enc('acme/fast')}`, flagged.token)).body.data.name).toBe('Acme Faster');
    expect(processRuntime().routing.table().models.get('acme/quick')?.name).toBe('Acme Faster');
    expect((await call('PUT', `/admin/models/${enc('acme/slow')}`, flagged.token, model('acme/slow'))).status).toBe(201);

    // The public endpoints view (no credential) serves the new model at once, by id or alias.
    for (const path of ['/models/acme/fast/endpoints', '/models/acme/quick/endpoints']) {
      const view = await call('GET', path, null);
      expect(view.status, path).toBe(200);
      expect(view.body.data).toMatchObject({ id: 'acme/fast', name: 'Acme Faster', endpoints: [{ provider: 'acme-a', upstream_model: 'gpt-4o-mini', pricing: { prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075' }, status: 'healthy' }] });
    }
    const unknown = await call('GET', '/models/acme/none/endpoints', null);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 404, metadata: { model: 'acme/none' } });

    for (const id of ['acme/fast', 'openai/gpt-4o-mini']) {
      const again = await call('POST', '/admin/models', flagged.token, model(id));
      expect(again.status, id).toBe(409);
    }
    const removed = await call('DELETE', `/admin/models/${enc('acme/slow')}`, flagged.token);
    expect(removed.body).toEqual({ deleted: true, id: 'acme/slow', current: null });
    expect((await call('GET', `/admin/models/${enc('acme/slow')}`, flagged.token)).status).toBe(404);
    expect((await call('DELETE', `/admin/models/${enc('acme/slow')}`, flagged.token)).status).toBe(404);
  });

  it('a builtin is hidden by a PUT with enabled: false and comes back when that entry is deleted; it cannot be deleted itself', async () => {
    const builtin = (await call('GET', `/admin/models/${enc('openai/gpt-4o-mini')}`, flagged.token)).body.data;
    expect((await call('DELETE', `/admin/models/${enc('openai/gpt-4o-mini')}`, flagged.token)).status).toBe(409);
    const hidden = await call('PUT', `/admin/models/${enc('openai/gpt-4o-mini')}`, flagged.token, { ...builtin, enabled: false });
    expect(hidden.status).toBe(201);
    expect(hidden.body.data).toMatchObject({ source: 'admin', enabled: false });
    expect((await call('GET', '/models/openai/gpt-4o-mini/endpoints', null)).status).toBe(404);
    const back = await call('DELETE', `/admin/models/${enc('openai/gpt-4o-mini')}`, flagged.token);
    expect(back.body).toMatchObject({ deleted: true, current: { id: 'openai/gpt-4o-mini', source: 'builtin', enabled: true } });
    expect((await call('GET', '/models/openai/gpt-4o-mini/endpoints', null)).status).toBe(200);
  });

  it("a built-in's GET names its key variable (key_env, never the key); sent back as a PUT, the override reads that variable once it is set; turning it off or on is audited as the switch", async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const openai = await call('GET', '/admin/providers/openai', flagged.token);
    expect(openai.body.data).toMatchObject({ source: 'builtin', keys: [{ id: 'OPENAI_API_KEY', key_env: 'OPENAI_API_KEY', weight: 1 }] });
    if (process.env.OPENAI_API_KEY) expect(JSON.stringify(openai.body)).not.toContain(process.env.OPENAI_API_KEY);

    const shown = (await call('GET', '/admin/providers/groq', flagged.token)).body.data;
    expect(shown).toMatchObject({ source: 'builtin', configured: false, keys: [{ id: 'GROQ_API_KEY', key_env: 'GROQ_API_KEY', weight: 1 }] });
    const off = await call('PUT', '/admin/providers/groq', flagged.token, { ...shown, enabled: false });
    expect(off.status, JSON.stringify(off.body)).toBe(201);
    expect(off.body.data).toMatchObject({ source: 'admin', enabled: false, keys: [{ id: 'GROQ_API_KEY', key_env: 'GROQ_API_KEY', weight: 1 }] });
    const on = await call('PUT', '/admin/providers/groq', flagged.token, { ...off.body.data, enabled: true });
    expect(on.status).toBe(200);

    // The variable set afterwards (a restart reads it; a reload of this instance does too): the override uses it.
    process.env.GROQ_API_KEY = 'gsk-set-after-the-override-0123456789';
    try {
      await processRuntime().routing.reload();
      const now = await call('GET', '/admin/providers/groq', flagged.token);
      expect(now.body.data).toMatchObject({ source: 'admin', enabled: true, configured: true, keys: [{ id: 'GROQ_API_KEY', key_env: 'GROQ_API_KEY', weight: 1 }] });
      expect(now.body.data.missing).toBeUndefined();
      expect(JSON.stringify(now.body)).not.toContain('gsk-set-after');
      expect(processRuntime().routing.table().providers.get('groq')!.keys.map((k) => k.apiKey)).toEqual(['gsk-set-after-the-override-0123456789']);
    } finally {
      delete process.env.GROQ_API_KEY;
    }
    expect((await call('DELETE', '/admin/providers/groq', flagged.token)).body.current).toMatchObject({ id: 'groq', source: 'builtin' });

    // The same for a built-in model hidden and shown by PUTs of its GET.
    const builtinModel = ((await call('GET', '/admin/models', flagged.token)).body.data as { id: string; source: string }[]).find((m) => m.source === 'builtin' && m.id.startsWith('anthropic/'))!;
    expect((await call('PUT', `/admin/models/${enc(builtinModel.id)}`, flagged.token, { ...builtinModel, enabled: false })).status).toBe(201);
    expect((await call('DELETE', `/admin/models/${enc(builtinModel.id)}`, flagged.token)).status).toBe(200);

    const log = await call('GET', `/admin/audit-log?from=${enc(from)}&limit=200`, flagged.token);
    const actions = (log.body.data as { action: string; target: { id: string } }[]).filter((e) => ['groq', builtinModel.id].includes(e.target.id)).reverse();
    expect(actions.map((e) => `${e.action} ${e.target.id}`)).toEqual(['provider.disable groq', 'provider.enable groq', 'provider.delete groq', `model.disable ${builtinModel.id}`, `model.delete ${builtinModel.id}`]);
  });

  it("a model's GET shows endpoint limits only where the endpoint sets them: a GET sent back changes nothing, and the model's limits apply to the others", async () => {
    const endpoint = { provider: 'echo', upstream_model: 'echo', pricing: { input: 1, output: 2 } };
    const created = await call('POST', '/admin/models', flagged.token, { id: 'acme/dis', name: 'Dis', context_length: 8000, max_output_tokens: 100, endpoints: [endpoint, { ...endpoint, upstream_model: 'own', max_output_tokens: 40 }] });
    expect(created.status).toBe(201);
    const shown = (await call('GET', `/admin/models/${enc('acme/dis')}`, flagged.token)).body.data;
    expect(shown.endpoints[0]).not.toHaveProperty('context_length');
    expect(shown.endpoints[0]).not.toHaveProperty('max_output_tokens');
    expect(shown.endpoints[1]).toMatchObject({ upstream_model: 'own', max_output_tokens: 40 });
    expect(shown.endpoints[1]).not.toHaveProperty('context_length');
    expect((await call('GET', '/admin/models', flagged.token)).body.data.find((m: { id: string }) => m.id === 'acme/dis').endpoints).toEqual(shown.endpoints);

    const row = async () => (await (await db()).routingEntry.findUniqueOrThrow({ where: { kind_id: { kind: 'MODEL', id: 'acme/dis' } } })).config;
    const stored = await row();
    const from = new Date(Date.now() - 1000).toISOString();
    expect((await call('PUT', `/admin/models/${enc('acme/dis')}`, flagged.token, shown)).status).toBe(200);
    expect(await row()).toEqual(stored);
    const log = await call('GET', `/admin/audit-log?from=${enc(from)}&limit=200`, flagged.token);
    const write = (log.body.data as { action: string; target: { id: string }; before: unknown; after: unknown }[]).find((e) => e.target.id === 'acme/dis')!;
    expect(write.before).toEqual(write.after);

    expect((await call('PUT', `/admin/models/${enc('acme/dis')}`, flagged.token, { ...shown, max_output_tokens: 50 })).status).toBe(200);
    const served = processRuntime().routing.table().models.get('acme/dis')!;
    expect(served.endpoints.map((e) => [e.upstreamModel, e.contextLength, e.maxOutputTokens])).toEqual([['echo', 8000, 50], ['own', 8000, 40]]);
    const view = await call('GET', '/models/acme/dis/endpoints', null);
    expect(view.body.data.endpoints.map((e: { max_completion_tokens: number }) => e.max_completion_tokens)).toEqual([50, 40]);
    expect((await call('DELETE', `/admin/models/${enc('acme/dis')}`, flagged.token)).status).toBe(200);
  });

  it('entries of SWITCHBOARD_CONFIG are read-only here (409 naming the file)', async () => {
    const writes: [string, string, unknown?][] = [
      ['POST', '/admin/models', model('filed/model')],
      ['PUT', `/admin/models/${enc('filed/model')}`, model('filed/model')],
      ['DELETE', `/admin/models/${enc('filed/model')}`],
      ['POST', '/admin/providers', provider('file-prov')],
      ['PUT', '/admin/providers/file-prov', provider('file-prov')],
      ['DELETE', '/admin/providers/file-prov'],
    ];
    for (const [method, route, body] of writes) {
      const res = await call(method, route, flagged.token, body);
      expect(res.status, `${method} ${route}`).toBe(409);
      expect(res.body.error.message).toMatch(/defined in SWITCHBOARD_CONFIG, read-only here/);
    }
    expect((await call('GET', '/admin/providers/file-prov', flagged.token)).body.data).toMatchObject({ source: 'file', read_only: true, keys: [{ id: 'FILE_PROV_KEY', weight: 1 }] });
  });

  it('bad bodies are 400s naming the field; an endpoint naming an unknown provider names it', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/admin/models', model('acme/bad', { context_length: -1 }), /^context_length: /],
      ['POST', '/admin/models', model('acme/bad', { endpoints: [{ provider: 'acme-a', upstream_model: 'x', pricing: { input: -1, output: 1 } }] }), /^endpoints\.0\.pricing\.input: a price cannot be negative/],
      ['POST', '/admin/models', model('acme/bad', { endpoints: [{ provider: 'ghost', upstream_model: 'x', pricing: { input: 1, output: 1 } }] }), /^endpoints\.0\.provider: unknown provider "ghost"/],
      ['POST', '/admin/models', { ...model('acme/bad'), colour: 'red' }, /colour/],
      ['POST', '/admin/models', model('not-an-id'), /^id: model id/],
      ['PUT', `/admin/models/${enc('acme/one')}`, model('acme/other'), /^id: the body's id "acme\/other" differs from the path's "acme\/one"/],
      ['POST', '/admin/providers', provider('acme-b', { keys: [{ key: 'k', key_env: 'K' }] }), /^keys\.0: a key needs exactly one of key_env or key/],
      ['POST', '/admin/providers', provider('acme-b', { base_url: undefined }), /^base_url: an openai-compatible provider needs base_url/],
      ['POST', '/admin/providers', provider('acme-b', { type: 'carrier-pigeon' }), /^type: /],
      ['POST', '/admin/providers', [provider('acme-b')], /must be a JSON object/],
    ];
    for (const [method, route, body, message] of cases) {
      const res = await call(method, route, flagged.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });

  it('a provider that operators\' models route to cannot be deleted until they stop', async () => {
    const refused = await call('DELETE', '/admin/providers/acme-a', flagged.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error.metadata.models).toEqual(['acme/fast']);
    expect((await call('DELETE', `/admin/models/${enc('acme/fast')}`, flagged.token)).status).toBe(200);
    expect((await call('DELETE', '/admin/providers/acme-a', flagged.token)).body).toEqual({ deleted: true, id: 'acme-a', current: null });
    expect(processRuntime().routing.table().providers.has('acme-a')).toBe(false);
    // Deleting an override of a built-in brings the built-in back.
    expect((await call('PUT', '/admin/providers/echo', flagged.token, { id: 'echo', type: 'echo', name: 'Loud echo' })).status).toBe(201);
    expect((await call('DELETE', '/admin/providers/echo', flagged.token)).body.current).toMatchObject({ id: 'echo', source: 'builtin' });
  });

  it('cloud providers read back their non-secret settings; GET → PUT keeps them and the stored key, never showing a secret', async () => {
    const clouds = [
      { id: 'acme-bedrock', type: 'bedrock', region: 'eu-west-1', access_key_id_env: 'ACME_AWS_ID', secret_access_key_env: 'ACME_AWS_SECRET', session_token_env: 'ACME_AWS_TOKEN', timeout_ms: 30_000, keys: [{ id: 'br', key: SECRET }] },
      { id: 'acme-vertex', type: 'vertex', project: 'acme-prod', location: 'us-east5', credentials_env: 'ACME_VERTEX_JSON' },
      { id: 'acme-azure', type: 'azure-openai', base_url: 'https://acme.openai.azure.com/openai/deployments/gpt-4o', api_version: '2024-10-21', tenant_id: 'tenant-1', client_id: 'client-1', client_secret_env: 'ACME_AZURE_SECRET', token_url: 'https://login.example.com/token' },
    ];
    for (const entry of clouds) {
      const { keys: _keys, ...settings } = entry;
      expect((await call('POST', '/admin/providers', flagged.token, entry)).status, entry.id).toBe(201);
      const shown = await call('GET', `/admin/providers/${entry.id}`, flagged.token);
      expect(shown.body.data, entry.id).toMatchObject(settings);
      // A host derived from the region or location is not written into the entry by a round trip.
      if (!('base_url' in entry)) expect(shown.body.data.base_url, entry.id).toBeUndefined();
      expect((await call('GET', '/admin/providers', flagged.token)).body.data.find((p: { id: string }) => p.id === entry.id)).toMatchObject(settings);

      const put = await call('PUT', `/admin/providers/${entry.id}`, flagged.token, { ...shown.body.data, name: 'Renamed' });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.data).toMatchObject({ ...settings, name: 'Renamed' });
      const stored = (await loadAdminEntries()).providers.find((p) => p.id === entry.id)!;
      expect(stored).toMatchObject({ ...settings, name: 'Renamed' });
      if (entry.keys) expect(stored.keys).toEqual([{ id: 'br', key: SECRET, weight: 1 }]);
      for (const res of [shown, put]) expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
    // The provider switch (a PUT of the GET with enabled changed) keeps them too.
    const bedrock = (await call('GET', '/admin/providers/acme-bedrock', flagged.token)).body.data;
    await call('PUT', '/admin/providers/acme-bedrock', flagged.token, { ...bedrock, enabled: false });
    expect((await loadAdminEntries()).providers.find((p) => p.id === 'acme-bedrock')).toMatchObject({ region: 'eu-west-1', timeout_ms: 30_000, enabled: false, keys: [{ id: 'br', key: SECRET }] });
    for (const entry of clouds) expect((await call('DELETE', `/admin/providers/${entry.id}`, flagged.token)).status).toBe(200);
  });

  it('every catalog write is in the operators\' audit log (no account), by the operator, without secrets', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const writes: [string, string, unknown?][] = [
      ['POST', '/admin/providers', provider('audit-up', { headers: { 'X-Upstream-Token': 'hdr-SECRET-value' } })],
      ['POST', '/admin/models', model('audit/m', { endpoints: [{ provider: 'audit-up', upstream_model: 'm', pricing: { input: 1, output: 2 } }] })],
      ['PUT', `/admin/models/${enc('audit/m')}`, model('audit/m', { endpoints: [{ provider: 'audit-up', upstream_model: 'm', pricing: { input: 1.5, output: 2 } }] })],
      ['PUT', `/admin/models/${enc('audit/m')}`, model('audit/m', { enabled: false, endpoints: [{ provider: 'audit-up', upstream_model: 'm', pricing: { input: 1.5, output: 2 } }] })],
      ['PUT', '/admin/providers/audit-up', provider('audit-up', { keys: [{ key_env: 'ACME_KEY_VAR' }, { id: 'lit', stored: true, weight: 3 }], headers: { 'X-Upstream-Token': 'hdr-SECRET-value' }, enabled: false })],
      ['DELETE', `/admin/models/${enc('audit/m')}`],
      ['DELETE', '/admin/providers/audit-up'],
    ];
    for (const [method, route, body] of writes) expect((await call(method, route, flagged.token, body)).status, `${method} ${route}`).toBeLessThan(300);
    // A refused write records nothing.
    expect((await call('POST', '/admin/models', flagged.token, model('audit/bad', { context_length: -1 }))).status).toBe(400);

    const log = await call('GET', `/admin/audit-log?from=${enc(from)}&limit=200`, flagged.token);
    expect(log.status).toBe(200);
    const entries = (log.body.data as { action: string; target: { id: string } }[]).filter((e) => ['audit-up', 'audit/m', 'audit/bad'].includes(e.target.id)).reverse();
    expect(entries.map((e) => `${e.action} ${e.target.id}`)).toEqual([
      'provider.create audit-up',
      'model.create audit/m',
      'model.update audit/m',
      'model.disable audit/m',
      'provider.disable audit-up',
      'model.delete audit/m',
      'provider.delete audit-up',
    ]);
    for (const e of entries) expect(e).toMatchObject({ account_id: null, actor: { kind: 'auth_token', user_id: flagged.id, label: flagged.email, via: 'rest' } });
    expect(entries[2]).toMatchObject({ target: { type: 'model' }, before: { endpoints: [{ pricing: { input: 1 } }] }, after: { endpoints: [{ pricing: { input: 1.5 } }] } });
    expect(entries[0]).toMatchObject({
      target: { type: 'provider' },
      before: null,
      after: { id: 'audit-up', keys: [{ id: 'ACME_KEY_VAR', key_env: 'ACME_KEY_VAR' }, { id: 'lit', stored: true, key_hint: 'sk-…6789' }], headers: ['X-Upstream-Token'] },
    });
    expect(entries[6]).toMatchObject({ before: { id: 'audit-up', enabled: false }, after: null });
    const text = JSON.stringify(log.body);
    for (const secret of [SECRET, 'hdr-SECRET-value', '"key_secret"', 'sk-from-variable']) expect(text).not.toContain(secret);
    // The catalog belongs to no account: no account's own log shows it.
    const own = await call('GET', `/users/${flagged.id}/audit-log`, flagged.token);
    expect((own.body.data as { action: string }[]).filter((e) => /^(provider|model)\./.test(e.action))).toEqual([]);
  });

  it(`on PostgreSQL without ENCRYPTION_KEY a literal key is refused (400), key_env is fine [${kind}]`, async () => {
    const env = { DATABASE_URL: process.env.DATABASE_URL, AUTH_SECRET: process.env.AUTH_SECRET, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY };
    process.env.DATABASE_URL = 'postgresql://127.0.0.1:1/unused'; // the mode only: the test's database stays in use
    process.env.AUTH_SECRET = 'x'.repeat(32);
    delete process.env.ENCRYPTION_KEY;
    resetEnvCache();
    try {
      const refused = await call('POST', '/admin/providers', flagged.token, provider('pg-lit'));
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^keys\.1\.key: cannot store a key: ENCRYPTION_KEY is not set.*use key_env/);
      expect((await call('POST', '/admin/providers', flagged.token, provider('pg-env', { keys: [{ key_env: 'ACME_KEY_VAR' }] }))).status).toBe(201);
    } finally {
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnvCache();
    }
  });
});
