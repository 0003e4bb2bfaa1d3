// The admin API's credentials_file through HTTP: only files inside SWITCHBOARD_CREDENTIALS_DIR once `..` and
// symlinks are resolved, a 400 with the spec's error body otherwise (and when the directory is not set at
// all), and an entry already stored with a path outside it is never opened when the table is built.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setOperator } from '@/server/auth/operator';
import { resetEnvCache } from '@/server/env';
import { processRuntime } from '@/server/runtime/process-runtime';
import { jsonClient, testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { loadAdminEntries, putAdminProvider } from './routing-store';

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sb-credentials-')));
const credentialsDir = path.join(root, 'credentials');
const outside = path.join(root, 'outside');
mkdirSync(credentialsDir);
mkdirSync(outside);
const keyJson = JSON.stringify({
  type: 'service_account',
  project_id: 'acme-prod',
  client_email: 'gateway@acme-prod.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nnot-a-real-key\n-----END PRIVATE KEY-----\n',
});
writeFileSync(path.join(credentialsDir, 'vertex.json'), keyJson);
writeFileSync(path.join(outside, 'stolen.json'), keyJson);
// A link inside the directory that leads out of it, and a directory (not a regular file).
symlinkSync(path.join(outside, 'stolen.json'), path.join(credentialsDir, 'link.json'));
mkdirSync(path.join(credentialsDir, 'sub'));

const saved = { SWITCHBOARD_CREDENTIALS_DIR: process.env.SWITCHBOARD_CREDENTIALS_DIR, SWITCHBOARD_CONFIG: process.env.SWITCHBOARD_CONFIG };
// Before the process runtime exists: its routing table reads the directory too.
process.env.SWITCHBOARD_CREDENTIALS_DIR = credentialsDir;
delete process.env.SWITCHBOARD_CONFIG;
resetEnvCache();

afterAll(async () => {
  await processRuntime().close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  rmSync(root, { recursive: true, force: true });
});

const vertex = (id: string, credentialsFile: string) => ({ id, type: 'vertex' as const, location: 'us-east5', credentials_file: credentialsFile });

describeEachDatabase('admin API: credentials_file', () => {
  let api: ApiServer;
  const call = jsonClient(() => api.origin);
  let operator: TestUser;

  beforeAll(async () => {
    api = await startApiServer();
    await processRuntime().routing.reload();
    operator = await testUser('operator');
    await setOperator({ email: operator.email, operator: true });
  });
  afterAll(() => api?.close());

  it('takes a key inside the directory (by name or absolute path), stored as its real path', async () => {
    const byName = await call('POST', '/admin/providers', operator.token, vertex('vx-by-name', 'vertex.json'));
    expect(byName.status, JSON.stringify(byName.body)).toBe(201);
    expect(byName.body.data).toMatchObject({ configured: true });
    const stored = (await loadAdminEntries()).providers.find((p) => p.id === 'vx-by-name');
    expect(stored?.credentials_file).toBe(path.join(credentialsDir, 'vertex.json'));
    const absolute = await call('PUT', '/admin/providers/vx-absolute', operator.token, vertex('vx-absolute', path.join(credentialsDir, 'vertex.json')));
    expect(absolute.status).toBe(201);
    // The read shows the path (not the key inside), and a GET → PUT keeps it.
    const shown = await call('GET', '/admin/providers/vx-by-name', operator.token);
    expect(shown.body.data).toMatchObject({ type: 'vertex', location: 'us-east5', credentials_file: path.join(credentialsDir, 'vertex.json') });
    expect(JSON.stringify(shown.body)).not.toContain('not-a-real-key');
    const back = await call('PUT', '/admin/providers/vx-by-name', operator.token, shown.body.data);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await loadAdminEntries()).providers.find((p) => p.id === 'vx-by-name')).toMatchObject({ location: 'us-east5', credentials_file: path.join(credentialsDir, 'vertex.json') });
  });

  it('refuses a path outside the directory, a `..` escape, a symlink leading out and a directory: 400, nothing stored', async () => {
    for (const file of [path.join(outside, 'stolen.json'), '../outside/stolen.json', path.join(credentialsDir, '..', 'outside', 'stolen.json'), 'link.json', 'sub', '/etc/passwd', 'missing.json']) {
      const res = await call('POST', '/admin/providers', operator.token, vertex('vx-refused', file));
      expect(res.status, file).toBe(400);
      expect(res.body.error).toMatchObject({ code: 400, message: expect.stringMatching(/^credentials_file: /), metadata: { error_type: 'bad_request', field: 'credentials_file' } });
    }
    expect((await call('GET', '/admin/providers/vx-refused', operator.token)).status).toBe(404);
  });

  it('without SWITCHBOARD_CREDENTIALS_DIR, refuses every credentials_file and points to credentials_env', async () => {
    delete process.env.SWITCHBOARD_CREDENTIALS_DIR;
    resetEnvCache();
    try {
      const res = await call('PUT', '/admin/providers/vx-no-dir', operator.token, vertex('vx-no-dir', path.join(credentialsDir, 'vertex.json')));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/SWITCHBOARD_CREDENTIALS_DIR is not set\): use credentials_env/);
      // credentials_env is the way through the admin API.
      const viaEnv = await call('PUT', '/admin/providers/vx-no-dir', operator.token, { id: 'vx-no-dir', type: 'vertex', location: 'us-east5', credentials_env: 'VX_KEY_JSON' });
      expect(viaEnv.status).toBe(201);
    } finally {
      process.env.SWITCHBOARD_CREDENTIALS_DIR = credentialsDir;
      resetEnvCache();
    }
  });

  it('an entry stored with a path outside the directory is not opened when the table is built: not configured, saying why', async () => {
    // As a row written before the check existed would be.
    await putAdminProvider({ ...vertex('vx-stale', path.join(outside, 'stolen.json')), keys: [], headers: {}, supports_stream_options: true, enabled: true });
    await processRuntime().routing.reload();
    const res = await call('GET', '/admin/providers/vx-stale', operator.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ configured: false, missing: expect.stringMatching(/outside SWITCHBOARD_CREDENTIALS_DIR/) });
  });
});
