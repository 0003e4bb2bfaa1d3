// The console's catalog editing (server/trpc/routers/admin.ts: create/replace/delete of providers and models):
// the admin API's services behind operatorProcedure, so a change is in GET /api/v1/models and the routing
// table at once, a bad field is the admin API's 400 named by its field, and nobody else gets in.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { runtimeRouting } from '@/server/routing/runtime-routing';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { createCaller } from './root';

afterAll(() => processRuntime().close());

const provider = { id: 'console-up', type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', keys: [{ id: 'k1', key_env: 'CONSOLE_UP_KEY' }] };
const model = {
  id: 'console/fast',
  name: 'Console Fast',
  context_length: 8000,
  max_output_tokens: 1000,
  endpoints: [{ provider: 'console-up', upstream_model: 'fast-1', pricing: { input: 1, output: 2 } }],
};

describeEachDatabase('tRPC admin catalog editing', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let operator: TestUser;
  let user: TestUser;
  const as = (u: TestUser) => createCaller({ principal: { kind: 'session', userId: u.id, accountId: u.personalAccountId } }).admin;
  const listed = async (token: string) => ((await call('GET', '/models', token)).body.data as { id: string }[]).map((m) => m.id);
  const inTable = async (id: string) => (await runtimeRouting()).routing.table().models.get(id);

  beforeAll(async () => {
    api = await startApiServer();
    [operator, user] = await Promise.all([testUser('operator'), testUser('user')]);
    await setOperator({ email: operator.email, operator: true });
  });
  afterAll(() => api?.close());

  it('refuses everyone but operators', async () => {
    const admin = as(user);
    await expect(admin.createProvider(provider)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.replaceProvider({ id: provider.id, entry: provider })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.deleteProvider({ id: provider.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.createModel(model)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.replaceModel({ id: model.id, entry: model })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(admin.deleteModel({ id: model.id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await as(operator).providers()).data.find((p) => p.id === provider.id)).toBeUndefined();
  });

  it('creates, edits, disables and deletes a provider and a model, visible at once; bad fields are named', async () => {
    const admin = as(operator);
    await expect(admin.createProvider({ ...provider, base_url: 'not a url' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/base_url/) });
    await expect(admin.createModel(model)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/endpoints\.0\.provider/) });

    expect((await admin.createProvider(provider)).data).toMatchObject({ id: provider.id, source: 'admin', enabled: true });
    await expect(admin.createProvider(provider)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(admin.createModel({ ...model, context_length: -1 })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/context_length/) });
    expect((await admin.createModel(model)).data).toMatchObject({ id: model.id, name: 'Console Fast', source: 'admin', enabled: true });
    expect(await inTable(model.id)).toMatchObject({ id: model.id });
    expect(await listed(user.token)).toContain(model.id);

    const edited = await admin.replaceModel({ id: model.id, entry: { ...model, name: 'Console Faster', context_length: 16000 } });
    expect(edited.data).toMatchObject({ name: 'Console Faster', context_length: 16000 });
    await expect(admin.replaceModel({ id: model.id, entry: { ...model, id: 'console/other' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    expect((await admin.setModelEnabled({ id: model.id, enabled: false })).data).toMatchObject({ enabled: false });
    expect(await listed(user.token)).not.toContain(model.id);
    await admin.setModelEnabled({ id: model.id, enabled: true });
    expect(await listed(user.token)).toContain(model.id);

    const replaced = await admin.replaceProvider({ id: provider.id, entry: { ...provider, base_url: 'http://127.0.0.1:10/v1' } });
    expect(replaced).toMatchObject({ created: false, data: { id: provider.id, base_url: 'http://127.0.0.1:10/v1' } });
    expect((await admin.setProviderEnabled({ id: provider.id, enabled: false })).data).toMatchObject({ enabled: false });
    await admin.setProviderEnabled({ id: provider.id, enabled: true });

    // A provider in use by a model is not deleted from under it.
    await expect(admin.deleteProvider({ id: provider.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await admin.deleteModel({ id: model.id })).toMatchObject({ deleted: true, current: null });
    expect(await inTable(model.id)).toBeUndefined();
    expect(await listed(user.token)).not.toContain(model.id);
    expect(await admin.deleteProvider({ id: provider.id })).toMatchObject({ deleted: true });
    await expect(admin.deleteProvider({ id: provider.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await runtimeRouting()).routing.table().providers.get(provider.id)).toBeUndefined();
  });

  it('the console\'s writes and switches are audited as the operator, via the console, with no account', async () => {
    const admin = as(operator);
    await admin.createProvider({ ...provider, id: 'console-audit' });
    await admin.setProviderEnabled({ id: 'console-audit', enabled: false });
    await admin.setProviderEnabled({ id: 'console-audit', enabled: true });
    await admin.createModel({ ...model, id: 'console/audited', endpoints: [{ ...model.endpoints[0], provider: 'console-audit' }] });
    await admin.setModelEnabled({ id: 'console/audited', enabled: false });
    await admin.replaceModel({ id: 'console/audited', entry: { ...model, id: 'console/audited', name: 'Renamed', endpoints: [{ ...model.endpoints[0], provider: 'console-audit' }] } });
    await admin.deleteModel({ id: 'console/audited' });
    await admin.deleteProvider({ id: 'console-audit' });
    // The switch on a built-in provider creates the operator's override: still the switch's action.
    const builtin = (await admin.providers()).data.find((p) => p.source === 'builtin' && p.type !== 'echo')!;
    await admin.setProviderEnabled({ id: builtin.id, enabled: false });
    await admin.deleteProvider({ id: builtin.id });

    const log = await admin.auditLog({ limit: 50, target_type: 'provider' });
    const models = await admin.auditLog({ limit: 50, target_type: 'model' });
    const mine = [...log.data, ...models.data].filter((e) => ['console-audit', 'console/audited', builtin.id].includes(e.target.id ?? '')).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    expect(mine.map((e) => `${e.action} ${e.target.id}`)).toEqual([
      'provider.create console-audit',
      'provider.disable console-audit',
      'provider.enable console-audit',
      'model.create console/audited',
      'model.disable console/audited',
      'model.update console/audited',
      'model.delete console/audited',
      'provider.delete console-audit',
      `provider.disable ${builtin.id}`,
      `provider.delete ${builtin.id}`,
    ]);
    for (const e of mine) expect(e).toMatchObject({ account_id: null, actor: { kind: 'user', user_id: operator.id, label: operator.email, via: 'console' } });
  });

  it("the switch on an unconfigured built-in provider names its key variable: set later, the override reads it (no DELETE needed)", async () => {
    const saved = process.env.XAI_API_KEY;
    delete process.env.XAI_API_KEY;
    const admin = as(operator);
    try {
      await (await runtimeRouting()).routing.reload?.();
      expect((await call('GET', '/admin/providers/xai', operator.token)).body.data).toMatchObject({ source: 'builtin', configured: false });
      await admin.setProviderEnabled({ id: 'xai', enabled: false });
      expect((await admin.setProviderEnabled({ id: 'xai', enabled: true })).data).toMatchObject({ source: 'admin', enabled: true, keys: [{ id: 'XAI_API_KEY', key_env: 'XAI_API_KEY', weight: 1 }] });
      // Set after the switch (a restart reads it; this instance's reload does too).
      process.env.XAI_API_KEY = 'xai-set-after-the-switch-0123456789';
      await (await runtimeRouting()).routing.reload?.();
      const shown = await call('GET', '/admin/providers/xai', operator.token);
      expect(shown.body.data).toMatchObject({ source: 'admin', enabled: true, configured: true, keys: [{ id: 'XAI_API_KEY', key_env: 'XAI_API_KEY', weight: 1 }] });
      expect(shown.body.data.missing).toBeUndefined();
      expect(JSON.stringify(shown.body)).not.toContain('xai-set-after');
    } finally {
      await admin.deleteProvider({ id: 'xai' }).catch(() => undefined);
      if (saved === undefined) delete process.env.XAI_API_KEY;
      else process.env.XAI_API_KEY = saved;
    }
  });
});
