// Bring your own key through HTTP: PUT/GET/DELETE /organizations/{id}/provider-keys… and /users/{id}/provider-keys…
// Stored encrypted (the row never holds the key), listed masked, never returned, logged or audited in clear;
// only providers of the routing table that take one API key; owners and admins of an organization, or the user.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { isEncryptedSecret } from '@/server/crypto/secret-box';
import { Writable } from 'node:stream';
import { createLogger, replaceProcessLoggerForTests } from '@/server/observability/logger';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, organizationWorld, testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { decryptProviderKey, providerKeyFor } from './decrypt-provider-key';

const OPENAI_KEY = 'sk-proj-OWN-openai-key-0123456789-WXYZ';
const ANTHROPIC_KEY = 'sk-ant-OWN-anthropic-key-0123456789-QRST';

// The routing table the process runtime builds: the built-in providers plus a Bedrock one (cloud credentials,
// no single key) and a self-hosted OpenAI-compatible server.
const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-byok-'));
const configFile = path.join(dir, 'switchboard.yaml');
writeFileSync(
  configFile,
  ['providers:', '  - { id: my-bedrock, type: bedrock, region: us-east-1 }', '  - { id: local-llm, type: openai-compatible, base_url: "http://127.0.0.1:9/v1" }'].join('\n'),
);
const savedConfig = process.env.SWITCHBOARD_CONFIG;
process.env.SWITCHBOARD_CONFIG = configFile;
resetEnvCache();

afterAll(async () => {
  await processRuntime().close();
  process.env.SWITCHBOARD_CONFIG = savedConfig;
  resetEnvCache();
  rmSync(dir, { recursive: true, force: true });
});

describeEachDatabase('REST provider keys (bring your own key)', (kind) => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  it('stores a user’s key encrypted, lists it masked, replaces it, deletes it; never returns or logs it', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))));
    // The server's own log lines (pino) as well as anything written to the console.
    const restoreLogger = replaceProcessLoggerForTests(createLogger({ level: 'trace', destination: new Writable({ write: (chunk, _enc, done) => (logged.push(String(chunk)), done()) }) }));
    try {
      const u = await testUser('byok');
      const put = await call('PUT', '/users/me/provider-keys/openai', u.token, { key: OPENAI_KEY });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ data: { provider: 'openai', hint: 'sk-…WXYZ', created_at: expect.any(String), updated_at: expect.any(String) } });

      const prisma = await db();
      const row = await prisma.providerKey.findUniqueOrThrow({ where: { accountId_provider: { accountId: u.personalAccountId, provider: 'openai' } } });
      expect(row.encryptedKey).not.toContain(OPENAI_KEY);
      expect(row.encryptedKey).not.toContain('OWN-openai');
      expect(isEncryptedSecret(row.encryptedKey)).toBe(true);
      expect(row.createdById).toBe(u.id);
      expect(decryptProviderKey(row.encryptedKey)).toBe(OPENAI_KEY);
      expect(await providerKeyFor({ accountId: u.personalAccountId, provider: 'openai' })).toBe(OPENAI_KEY);
      expect(await providerKeyFor({ accountId: u.personalAccountId, provider: 'anthropic' })).toBeNull();

      await call('PUT', `/users/${u.id}/provider-keys/anthropic`, u.token, { key: ANTHROPIC_KEY });
      const list = await call('GET', '/users/me/provider-keys', u.token);
      expect(list.status).toBe(200);
      expect(list.body.data.map((k: { provider: string; hint: string }) => [k.provider, k.hint])).toEqual([['anthropic', 'sk-…QRST'], ['openai', 'sk-…WXYZ']]);

      // Replacing: one row, the new key and hint.
      const replaced = await call('PUT', '/users/me/provider-keys/openai', u.token, { key: `  ${OPENAI_KEY}-NEW9  ` });
      expect(replaced.body.data).toMatchObject({ provider: 'openai', hint: 'sk-…NEW9', created_at: put.body.data.created_at });
      expect(await providerKeyFor({ accountId: u.personalAccountId, provider: 'openai' })).toBe(`${OPENAI_KEY}-NEW9`);
      expect(await prisma.providerKey.count({ where: { accountId: u.personalAccountId } })).toBe(2);

      const deleted = await call('DELETE', '/users/me/provider-keys/openai', u.token);
      expect(deleted.body).toEqual({ deleted: true, provider: 'openai' });
      expect((await call('DELETE', '/users/me/provider-keys/openai', u.token)).status).toBe(404);
      expect((await call('GET', '/users/me/provider-keys', u.token)).body.data.map((k: { provider: string }) => k.provider)).toEqual(['anthropic']);

      // The audit trail names provider and hint only.
      const audit = await prisma.auditLogEntry.findMany({ where: { accountId: u.personalAccountId, action: { startsWith: 'provider_key.' } }, orderBy: { createdAt: 'asc' } });
      expect(audit.map((a) => [a.action, a.targetId])).toEqual([
        ['provider_key.set', 'openai'],
        ['provider_key.set', 'anthropic'],
        ['provider_key.set', 'openai'],
        ['provider_key.delete', 'openai'],
      ]);
      expect(audit[2]).toMatchObject({ before: expect.objectContaining({ hint: 'sk-…WXYZ' }), after: expect.objectContaining({ hint: 'sk-…NEW9' }) });

      const everything = JSON.stringify([put.body, list.body, replaced.body, audit]) + logged.join('\n');
      for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, 'OWN-openai', 'OWN-anthropic']) expect(everything).not.toContain(secret);
    } finally {
      for (const s of spies) s.mockRestore();
      restoreLogger();
    }
  });

  it('accepts providers of the routing table that take an API key; refuses unknown ones and cloud providers (400)', async () => {
    const u = await testUser('picky');
    expect((await call('PUT', '/users/me/provider-keys/local-llm', u.token, { key: 'local-server-key-123' })).status).toBe(200);
    for (const provider of ['mistral', 'xai', 'groq', 'openrouter', 'gemini', 'deepseek']) {
      expect((await call('PUT', `/users/me/provider-keys/${provider}`, u.token, { key: 'some-provider-key-0123456789' })).status, provider).toBe(200);
    }
    const unknown = await call('PUT', '/users/me/provider-keys/no-such-provider', u.token, { key: 'some-provider-key-0123456789' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/Unknown provider "no-such-provider"/), metadata: { providers: expect.arrayContaining(['openai', 'anthropic', 'local-llm']) } });
    expect(unknown.body.error.metadata.providers).not.toContain('my-bedrock');
    const bedrock = await call('PUT', '/users/me/provider-keys/my-bedrock', u.token, { key: 'AKIAIOSFODNN7EXAMPLE' });
    expect(bedrock.status).toBe(400);
    expect(bedrock.body.error.message).toMatch(/AWS credentials/);
    expect(bedrock.body.error.metadata).toMatchObject({ provider_type: 'bedrock' });
    expect((await call('PUT', '/users/me/provider-keys/echo', u.token, { key: 'whatever-key-0123' })).status).toBe(400);
    for (const body of [{}, { key: '' }, { key: 'short' }, { key: 'has a space inside it' }, { key: 42 }, { key: 'fine-length-key-0123', extra: true }]) {
      expect((await call('PUT', '/users/me/provider-keys/openai', u.token, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('DELETE', '/users/me/provider-keys/no-such-provider', u.token)).status).toBe(404);
  });

  it('organization keys: owners and admins only; each account sees its own keys; other users 404', async () => {
    const w = await organizationWorld('Byok');
    const base = `/organizations/${w.organizationId}/provider-keys`;
    expect((await call('PUT', `${base}/openai`, w.admin.token, { key: OPENAI_KEY })).status).toBe(200);
    expect((await call('PUT', `${base}/anthropic`, w.owner.token, { key: ANTHROPIC_KEY })).status).toBe(200);
    for (const u of [w.member, w.billing]) {
      for (const [method, p] of [['GET', base], ['PUT', `${base}/openai`], ['DELETE', `${base}/openai`]] as const) {
        const res = await call(method, p, u.token, method === 'PUT' ? { key: 'sk-member-key-0123456789' } : undefined);
        expect(res.status, `${method} ${p}`).toBe(403);
        expect(res.body.error.metadata).toMatchObject({ required_permission: 'provider-keys:manage' });
      }
    }
    for (const [method, p] of [['GET', base], ['PUT', `${base}/openai`], ['DELETE', `${base}/openai`]] as const) {
      expect((await call(method, p, w.stranger.token, method === 'PUT' ? { key: 'sk-stranger-key-0123456789' } : undefined)).status).toBe(404);
    }
    const listed = await call('GET', base, w.admin.token);
    expect(listed.body.data.map((k: { provider: string }) => k.provider)).toEqual(['anthropic', 'openai']);
    // The organization's keys are not the admin's own, and the other way round.
    expect((await call('GET', '/users/me/provider-keys', w.admin.token)).body.data).toEqual([]);
    expect((await call('DELETE', `${base}/openai`, w.owner.token)).status).toBe(200);
    expect((await call('GET', base, w.owner.token)).body.data.map((k: { provider: string }) => k.provider)).toEqual(['anthropic']);

    // A user's keys: only the user. An organization's API key acts for the organization only.
    expect((await call('GET', `/users/${w.member.id}/provider-keys`, w.admin.token)).status).toBe(404);
    expect((await call('PUT', `/users/${w.member.id}/provider-keys/openai`, w.admin.token, { key: OPENAI_KEY })).status).toBe(404);
    const orgKey = await createApiKey({ userId: w.admin.id, input: { name: 'org', account_id: w.organizationId } });
    expect((await call('GET', '/users/me/provider-keys', orgKey.key)).status).toBe(403);
    expect((await call('GET', base, orgKey.key)).status).toBe(200);
  });

  it(`on PostgreSQL without ENCRYPTION_KEY a key cannot be stored (400 saying why) [${kind}]`, async () => {
    const u = await testUser('no-encryption');
    const saved = { DATABASE_URL: process.env.DATABASE_URL, AUTH_SECRET: process.env.AUTH_SECRET, ENCRYPTION_KEY: process.env.ENCRYPTION_KEY };
    process.env.DATABASE_URL = 'postgresql://127.0.0.1:1/unused'; // the mode only: the test's database stays in use
    process.env.AUTH_SECRET = 'x'.repeat(32);
    delete process.env.ENCRYPTION_KEY;
    resetEnvCache();
    try {
      const refused = await call('PUT', '/users/me/provider-keys/openai', u.token, { key: OPENAI_KEY });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^Cannot store a provider key: ENCRYPTION_KEY is not set/);
      expect(JSON.stringify(refused.body)).not.toContain(OPENAI_KEY);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetEnvCache();
    }
    expect(await (await db()).providerKey.count({ where: { accountId: u.personalAccountId } })).toBe(0);
  });
});
