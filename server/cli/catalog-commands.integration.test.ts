// The operator's CLI: user:admin, and catalog:import → catalog:list → catalog:export → catalog:import again
// (the export is a file import reads; secrets never printed and never lost).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { isOperator } from '@/server/auth/operator';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { parseConfigText } from '@/server/routing/load-config-file';
import { loadAdminEntries, routingRevision } from '@/server/routing/routing-store';
import { testUser } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { runCommand } from './commands';

const SECRET = 'sk-cli-literal-SECRET-abcdefghij';
const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-catalog-cli-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const IMPORT = `
providers:
  - id: acme-cli
    type: openai-compatible
    base_url: http://127.0.0.1:9/v1
    keys:
      - { key_env: ACME_CLI_KEY }
      - { id: lit, key: ${SECRET}, weight: 3 }
models:
  - id: acme/cli-fast
    name: CLI Fast
    context_length: 64000
    max_output_tokens: 8000
    aliases: [cli-fast]
    endpoints:
      - { provider: acme-cli, upstream_model: up-fast, pricing: { input: 0.15, output: 0.6, cache_read: 0.075 } }
  - id: acme/cli-slow
    name: CLI Slow
    context_length: 64000
    max_output_tokens: 8000
    endpoints:
      - { provider: acme-cli, upstream_model: up-slow, pricing: { input: 1.25, output: 10 } }
`;
const ADMIN_EMAIL = `listed-${process.pid}@example.com`;
const savedAdminEmails = process.env.ADMIN_EMAILS;
process.env.ADMIN_EMAILS = ADMIN_EMAIL;
resetEnvCache();
afterAll(() => {
  if (savedAdminEmails === undefined) delete process.env.ADMIN_EMAILS;
  else process.env.ADMIN_EMAILS = savedAdminEmails;
  resetEnvCache();
  rmSync(dir, { recursive: true, force: true });
});

describeEachDatabase('CLI: user:admin and the catalog', () => {
  it('user:admin sets the operator flag by email (any case), --revoke clears it and says when ADMIN_EMAILS still lists the user', async () => {
    const u = await testUser('cli-op');
    const principal = { kind: 'auth_token' as const, userId: u.id, accountId: u.personalAccountId };
    expect(await isOperator(principal)).toBe(false);
    const granted = await runCommand('user:admin', { email: u.email.toUpperCase() });
    expect(granted.text).toBe(`${u.email} is now an operator: it may use /api/v1/admin/ with a personal API key or an auth token`);
    expect(granted.data.user).toMatchObject({ id: u.id, is_operator: true, admin_email: false });
    expect(await isOperator(principal)).toBe(true);
    const revoked = await runCommand('user:admin', { email: u.email, revoke: true });
    expect(revoked.text).toBe(`${u.email} is no longer an operator by the flag`);
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: u.id } })).isOperator).toBe(false);
    expect(await isOperator(principal)).toBe(false);

    const listed = await testUser('listed', ADMIN_EMAIL);
    expect(await isOperator({ kind: 'auth_token', userId: listed.id, accountId: listed.personalAccountId })).toBe(true);
    expect((await runCommand('user:admin', { email: ADMIN_EMAIL, revoke: true })).text).toMatch(/still an operator: .* is listed in ADMIN_EMAILS/);
    await expect(runCommand('user:admin', { email: 'nobody@example.com' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(runCommand('user:admin', {})).rejects.toMatchObject({ code: 'bad_request', message: 'email: --email is required' });
  });

  it('catalog:import → catalog:list → catalog:export → catalog:import: one revision per import, keys never printed, stored keys kept', async () => {
    const before = await routingRevision();
    const imported = await runCommand('catalog:import', { file: file('import.yaml', IMPORT) });
    expect(imported.data).toMatchObject({ providers: 1, models: 2, created: 3, updated: 0, kept_keys: [], revision: before + 1 });
    expect(imported.text).toMatch(/^Imported 1 provider\(s\) and 2 model\(s\) from .*import\.yaml: 3 new, 0 replaced/);
    const row = await (await db()).routingEntry.findUniqueOrThrow({ where: { kind_id: { kind: 'PROVIDER', id: 'acme-cli' } } });
    expect(JSON.stringify(row.config)).not.toContain(SECRET);

    const list = await runCommand('catalog:list', { source: 'admin' });
    expect(list.text.split('\n').slice(1, 3)).toEqual([
      expect.stringMatching(/^acme\/cli-fast\s+admin\s+yes\s+acme-cli:up-fast\s+\$0\.15 \/ \$0\.60$/),
      expect.stringMatching(/^acme\/cli-slow\s+admin\s+yes\s+acme-cli:up-slow\s+\$1\.25 \/ \$10\.00$/),
    ]);
    expect((await runCommand('catalog:list', {})).text).toMatch(/switchboard\/echo\s+file/);

    const everything = (await runCommand('catalog:export', {})).text;
    expect(everything).not.toContain(SECRET);
    expect(everything).toMatch(/# source: builtin\n {2}- id: anthropic/);
    const exported = (await runCommand('catalog:export', { source: 'admin' })).text;
    expect(exported).not.toContain(SECRET);
    expect(exported).toContain('# source: admin; keys not exported (secrets): lit (sk-…ghij)');
    const reread = parseConfigText(exported, 'export.yaml', { knownProviders: ['acme-cli'] });
    const original = parseConfigText(IMPORT, 'import.yaml');
    expect(reread.models).toEqual(original.models);
    expect(reread.providers).toEqual([{ ...original.providers[0], keys: [{ id: 'ACME_CLI_KEY', key_env: 'ACME_CLI_KEY', weight: 1 }] }]);

    const again = await runCommand('catalog:import', { file: file('export.yaml', exported) });
    expect(again.data).toMatchObject({ created: 0, updated: 3, kept_keys: ['acme-cli/lit'], revision: before + 2 });
    expect(again.text).toMatch(/Kept stored keys the file does not list \(an import never deletes a secret\): acme-cli\/lit/);
    const provider = (await loadAdminEntries()).providers.find((p) => p.id === 'acme-cli')!;
    expect(provider.keys).toEqual([{ id: 'ACME_CLI_KEY', key_env: 'ACME_CLI_KEY', weight: 1 }, { id: 'lit', key: SECRET, weight: 3 }]);

    // Each import is one audit entry of the instance (no account), by the CLI's operator, naming what it wrote.
    const audited = await (await db()).auditLogEntry.findMany({ where: { action: 'catalog.import' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(audited.slice(-2).map((e) => [e.accountId, e.actorKind, e.via])).toEqual([[null, 'operator', 'cli'], [null, 'operator', 'cli']]);
    expect(audited.at(-1)!.after).toEqual({ providers: ['acme-cli'], models: ['acme/cli-fast', 'acme/cli-slow'], created: 0, updated: 3, kept_keys: ['acme-cli/lit'] });
    expect(JSON.stringify(audited)).not.toContain(SECRET);
  });

  it('catalog:import refuses a broken file (file:line:column: field) and ids SWITCHBOARD_CONFIG defines, importing nothing', async () => {
    const before = await routingRevision();
    const broken = file('broken.yaml', IMPORT.replace('input: 1.25', 'input: -1'));
    await expect(runCommand('catalog:import', { file: broken })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/broken\.yaml:\d+:\d+: models\[1\]\.endpoints\[0\]\.pricing\.input: a price cannot be negative/) });
    const ghost = file('ghost.yaml', IMPORT.replace('provider: acme-cli, upstream_model: up-slow', 'provider: ghost, upstream_model: up-slow'));
    await expect(runCommand('catalog:import', { file: ghost })).rejects.toMatchObject({ message: expect.stringMatching(/unknown provider "ghost"/) });
    // test/fixtures/priced-echo.yaml (SWITCHBOARD_CONFIG in tests) defines switchboard/echo.
    const echo = file('echo.yaml', IMPORT.replace('id: acme/cli-slow', 'id: switchboard/echo'));
    await expect(runCommand('catalog:import', { file: echo })).rejects.toMatchObject({ code: 'conflict', message: 'model switchboard/echo: defined in SWITCHBOARD_CONFIG, read-only here; nothing was imported' });
    await expect(runCommand('catalog:import', { file: path.join(dir, 'missing.yaml') })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^Cannot read .*missing\.yaml: ENOENT/) });
    // Imported providers are operators' entries: a credentials_file only inside SWITCHBOARD_CREDENTIALS_DIR (unset here).
    const vertexFile = file('vertex.yaml', 'providers:\n  - { id: vx-cli, type: vertex, location: us-east5, credentials_file: /etc/passwd }\n');
    await expect(runCommand('catalog:import', { file: vertexFile })).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^provider vx-cli: credentials_file: cannot be set .*use credentials_env/) });
    await expect(runCommand('catalog:export', { source: 'admin,nowhere' })).rejects.toMatchObject({ message: expect.stringMatching(/unknown source nowhere/) });
    expect(await routingRevision()).toBe(before);
  });
});
