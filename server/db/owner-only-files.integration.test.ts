// The embedded database directory is owner-only (0600 files, 0700 directories) even when the process runs with
// a permissive umask (0): the directory, every file PGlite writes (at open and while it runs), the lock, the
// server link files and the generated AUTH_SECRET; files an earlier run left loose are tightened at open.
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { writeServerInfo } from '@/server/cli/server-link';
import { authSecret, resetEnvCache } from '@/server/env';
import { pgliteTemplateDir } from '@/test/db';
import { openDatabase } from './client';

function entries(dir: string): { file: string; mode: number; directory: boolean }[] {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    const stat = lstatSync(current);
    out.push({ file: path.relative(dir, current) || '.', mode: stat.mode & 0o777, directory: stat.isDirectory() });
    if (stat.isDirectory()) for (const name of readdirSync(current)) stack.push(path.join(current, name));
  }
  return out;
}

function loosen(dir: string) {
  for (const e of entries(dir)) chmodSync(path.join(dir, e.file), e.directory ? 0o777 : 0o666);
}

describe('embedded database files under umask 0', () => {
  let previousUmask: number;
  let root: string;
  const savedDataDir = process.env.DATA_DIR;
  const savedSecret = process.env.AUTH_SECRET;

  beforeAll(() => {
    previousUmask = process.umask(0);
    root = mkdtempSync(path.join(os.tmpdir(), 'sb-owner-only-'));
  });
  afterAll(() => {
    process.umask(previousUmask);
    if (savedDataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = savedDataDir;
    if (savedSecret === undefined) delete process.env.AUTH_SECRET;
    else process.env.AUTH_SECRET = savedSecret;
    resetEnvCache();
    rmSync(root, { recursive: true, force: true });
  });

  it('are 0600 files in 0700 directories: at open, while PGlite runs, and for the files the server writes', async () => {
    const dataDir = path.join(root, 'data');
    // A database left world-readable by an earlier run under a permissive umask.
    cpSync(pgliteTemplateDir(), path.join(dataDir, 'pglite'), { recursive: true });
    rmSync(path.join(dataDir, 'pglite', 'pglite.lock'), { force: true });
    writeFileSync(path.join(dataDir, 'server.json'), '{}');
    loosen(dataDir);
    expect(entries(dataDir).some((e) => e.mode & 0o077)).toBe(true);

    const database = await openDatabase({ dataDir });
    try {
      // New relations, indexes and WAL written while the database runs.
      await database.sql.query('CREATE TABLE owner_only_probe (id serial PRIMARY KEY, body text)');
      await database.sql.query("INSERT INTO owner_only_probe (body) SELECT repeat('x', 500) FROM generate_series(1, 5000)");
      await database.sql.query('CREATE INDEX owner_only_probe_body ON owner_only_probe (body)');
      writeServerInfo(dataDir, { pid: process.pid, port: 1 });
      process.env.DATA_DIR = dataDir;
      delete process.env.AUTH_SECRET;
      resetEnvCache();
      authSecret();
      expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
      expect(entries(dataDir).filter((e) => e.mode & 0o077).map((e) => `${e.file} ${e.mode.toString(8)}`)).toEqual([]);
    } finally {
      await database.close();
    }
    for (const name of ['cli-token', 'server.json', 'auth-secret']) expect(existsSync(path.join(dataDir, name)), name).toBe(true);
    const loose = entries(dataDir).filter((e) => e.mode !== (e.directory ? 0o700 : 0o600) && (e.mode & 0o077) !== 0);
    expect(loose.map((e) => `${e.file} ${e.mode.toString(8)}`)).toEqual([]);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('a DATA_DIR that does not exist yet is created 0700, with its parents', () => {
    const dataDir = path.join(root, 'fresh', 'nested');
    process.env.DATA_DIR = dataDir;
    delete process.env.AUTH_SECRET;
    resetEnvCache();
    authSecret();
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(lstatSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);
  });
});
