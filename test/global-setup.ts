// Once per `vitest run`: a migrated PGlite template directory that each test file copies, and (with
// TEST_DATABASE_URL) a migrated PostgreSQL template database that each test file's database is created from.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { applyMigrations } from '../server/db/migrate';
import { sqlClientFromPg, sqlClientFromPglite } from '../server/db/sql-client';

function migrationsHash(): string {
  const dir = path.resolve('prisma/migrations');
  const h = createHash('sha256');
  if (existsSync(dir)) for (const d of readdirSync(dir).sort()) {
    const f = path.join(dir, d, 'migration.sql');
    if (existsSync(f)) h.update(d).update(readFileSync(f));
  }
  return h.digest('hex').slice(0, 16);
}

export default async function setup({ provide }: { provide?: unknown }) {
  void provide;
  const dir = path.join(os.tmpdir(), `sb-pglite-template-${migrationsHash()}`);
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const db = await PGlite.create(tmp);
    await applyMigrations(sqlClientFromPglite(db));
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  }
  process.env.SB_PGLITE_TEMPLATE = dir;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) process.env.SB_PG_TEMPLATE = await postgresTemplate(adminUrl, `sb_template_${migrationsHash()}`);
  // Tests open their own databases. Anything that still opens the process-wide one from the environment
  // (a runtime's timer outliving its test file's database) must not create, half-migrate and lock the
  // checkout's ./.data, which `npm start` would then refuse: give the workers a scratch DATA_DIR instead.
  // Echo is free by default; tests of money use it priced (a test of the default catalog passes configFile: null).
  process.env.SWITCHBOARD_CONFIG ??= path.resolve('test/fixtures/priced-echo.yaml');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'sb-test-data-'));
  process.env.DATA_DIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}

/**
 * A PostgreSQL database holding every migration, named after the migrations' hash, for test databases to be
 * created from (`CREATE DATABASE … TEMPLATE`: a file copy, ~0.3 s, where applying the migrations took ~2 s per
 * test file). Made under a temporary name and renamed, so concurrent runs never use a half-migrated one; nobody
 * stays connected to it, which PostgreSQL requires of a template. Kept between runs (a new migration makes a new
 * name).
 */
async function postgresTemplate(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    const tmp = `${name}_tmp_${process.pid}`;
    await admin.query(`DROP DATABASE IF EXISTS ${tmp}`);
    await admin.query(`CREATE DATABASE ${tmp}`);
    const u = new URL(adminUrl);
    u.pathname = '/' + tmp;
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    try {
      await applyMigrations(sqlClientFromPg(c));
    } finally {
      await c.end();
    }
    try {
      await admin.query(`ALTER DATABASE ${tmp} RENAME TO ${name}`);
    } catch (err) {
      // Another run made it first (42P04: duplicate database): use theirs.
      await admin.query(`DROP DATABASE IF EXISTS ${tmp}`);
      if ((err as { code?: string }).code !== '42P04') throw err;
    }
    return name;
  } finally {
    await admin.end();
  }
}
