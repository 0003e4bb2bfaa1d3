import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProvider } from '@/server/routing/compile-provider';
import { providerConfigSchema } from '@/server/routing/config-schema';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-vertex-'));
const KEY = JSON.stringify({ type: 'service_account', project_id: 'from-key', client_email: 'sa@from-key.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nMII…\n-----END PRIVATE KEY-----\n', token_uri: 'https://oauth2.googleapis.com/token' });

function compile(entry: object, vars: Record<string, string> = {}) {
  const warnings: string[] = [];
  const parsed = providerConfigSchema.parse({ id: 'gcp', type: 'vertex', ...entry });
  return compileProvider(parsed, { source: 'file', readVar: (name) => vars[name], warnings });
}

describe('type: vertex provider entries', () => {
  it('configured with a key, a project and a location; the host follows the location', () => {
    const p = compile({ project: 'acme', location: 'us-east5', credentials_env: 'GCP_KEY' }, { GCP_KEY: KEY });
    expect(p).toMatchObject({ configured: true, baseUrl: 'https://us-east5-aiplatform.googleapis.com' });
    expect(p.adapter.id).toBe('vertex');
    expect(compile({ project: 'acme', location: 'global', credentials_env: 'GCP_KEY' }, { GCP_KEY: KEY }).baseUrl).toBe('https://aiplatform.googleapis.com');
  });

  it('takes the project from the key when the entry names none, and base_url overrides the host', () => {
    const file = path.join(dir, 'key.json');
    writeFileSync(file, KEY);
    expect(compile({ location: 'europe-west1', credentials_file: file, base_url: 'http://127.0.0.1:9/' })).toMatchObject({ configured: true, baseUrl: 'http://127.0.0.1:9' });
  });

  it.each([
    [{ project: 'a', location: 'us-east5' }, {}, /credentials_file or credentials_env/],
    [{ project: 'a', location: 'us-east5', credentials_env: 'GCP_KEY' }, {}, /^GCP_KEY$/],
    [{ project: 'a', location: 'us-east5', credentials_env: 'GCP_KEY' }, { GCP_KEY: '{"type":"service_account",' }, /not valid JSON/],
    [{ project: 'a', location: 'us-east5', credentials_env: 'GCP_KEY' }, { GCP_KEY: '{"type":"authorized_user","refresh_token":"x"}' }, /type must be "service_account"/],
    [{ project: 'a', location: 'us-east5', credentials_file: '/nonexistent/key.json' }, {}, /readable credentials_file \/nonexistent\/key.json \(ENOENT\)/],
    [{ location: 'us-east5', credentials_env: 'GCP_KEY' }, { GCP_KEY: KEY.replace('"project_id":"from-key",', '') }, /project for provider "gcp"/],
    [{ project: 'a', credentials_env: 'GCP_KEY' }, { GCP_KEY: KEY }, /location for provider "gcp"/],
  ])('unconfigured, saying what is missing, never throwing: %j', (entry, vars, missing) => {
    const p = compile(entry, vars);
    expect(p.configured).toBe(false);
    expect(p.missing).toMatch(missing);
  });
});
