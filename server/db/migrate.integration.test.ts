// applyMigrations on both engines we ship: in-memory PGlite and a scratch PostgreSQL database
// (admin connection: TEST_DATABASE_URL, else the local server; creates sb_test_<random>, drops it after).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, migrationChecksum } from './migrate';
import { sqlClientFromPg, sqlClientFromPglite, type SqlClient } from './sql-client';

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

interface Backend {
  name: string;
  setup(): Promise<void>;
  /** A fresh, empty database for one test. */
  fresh(): Promise<{ sql: SqlClient; connect(): Promise<{ sql: SqlClient; close(): Promise<void> }> }>;
  teardown(): Promise<void>;
}

function pgliteBackend(): Backend {
  let template: PGlite;
  const open: PGliteInterface[] = [];
  return {
    name: 'PGlite (in-memory)',
    async setup() {
      template = await PGlite.create(); // initdb once (~4 s); clones take ~1 s
    },
    async fresh() {
      const db = await template.clone();
      open.push(db);
      return {
        sql: sqlClientFromPglite(db),
        connect: () => Promise.reject(new Error('PGlite has a single connection')),
      };
    },
    async teardown() {
      await Promise.all([...open, template].filter(Boolean).map((db) => db.close()));
    },
  };
}

function postgresBackend(): Backend {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  const dbName = `sb_test_${randomBytes(6).toString('hex')}`;
  const clients: pg.Client[] = [];
  let n = 0;
  const connect = async (database: string) => {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    clients.push(client);
    return { sql: sqlClientFromPg(client), close: () => client.end() };
  };
  return {
    name: 'PostgreSQL',
    async setup() {
      await admin.connect();
    },
    async fresh() {
      const database = `${dbName}_${n++}`;
      await admin.query(`CREATE DATABASE ${database}`);
      const first = await connect(database);
      return { sql: first.sql, connect: () => connect(database) };
    },
    async teardown() {
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
      for (let i = 0; i < n; i++) await admin.query(`DROP DATABASE IF EXISTS ${dbName}_${i} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function writeMigration(dir: string, name: string, sql: string) {
  mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

const M1 = '20250101000000_init';
const M2 = '20250102000000_add_posts';

describe.each([pgliteBackend(), postgresBackend()])('applyMigrations on $name', (backend) => {
  let dir: string;
  beforeAll(() => backend.setup());
  afterAll(() => backend.teardown());
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-migrations-'));
    writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
    writeMigration(dir, M1, '-- CreateTable\nCREATE TABLE "User" (\n    "id" TEXT NOT NULL,\n    "email" TEXT NOT NULL,\n    CONSTRAINT "User_pkey" PRIMARY KEY ("id")\n);\n');
    writeMigration(dir, M2, 'CREATE TABLE "Post" ("id" SERIAL PRIMARY KEY, "userId" TEXT NOT NULL REFERENCES "User"("id"));\nINSERT INTO "User" VALUES (\'u1\', \'a@b.c\');\n');
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('applies pending migrations in order and records them like Prisma', async () => {
    const { sql } = await backend.fresh();
    const lines: string[] = [];
    const result = await applyMigrations(sql, { dir, log: (l) => lines.push(l) });
    expect(result).toEqual({ applied: [M1, M2], alreadyApplied: 0 });
    expect(lines.some((l) => l.includes(`applied ${M2}`))).toBe(true);

    const { rows } = await sql.query<Record<string, unknown>>(
      'SELECT * FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual([M1, M2]);
    for (const r of rows) {
      const file = readFileSync(path.join(dir, String(r.migration_name), 'migration.sql'));
      expect(r.checksum).toBe(migrationChecksum(file));
      expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.applied_steps_count).toBe(1);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.rolled_back_at).toBeNull();
      expect(r.logs).toBeNull();
    }
    expect((await sql.query('SELECT count(*)::int AS n FROM "Post"')).rows[0]).toEqual({ n: 0 });

    // The table matches the engine's DDL column for column.
    const cols = await sql.query<{ column_name: string; data_type: string; len: number | null; is_nullable: string; column_default: string | null }>(
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable, column_default
         FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(cols.rows.map((c) => [c.column_name, c.data_type, c.len, c.is_nullable])).toEqual([
      ['id', 'character varying', 36, 'NO'],
      ['checksum', 'character varying', 64, 'NO'],
      ['finished_at', 'timestamp with time zone', null, 'YES'],
      ['migration_name', 'character varying', 255, 'NO'],
      ['logs', 'text', null, 'YES'],
      ['rolled_back_at', 'timestamp with time zone', null, 'YES'],
      ['started_at', 'timestamp with time zone', null, 'NO'],
      ['applied_steps_count', 'integer', null, 'NO'],
    ]);
  });

  it('is a no-op when run again, and applies only what was added', async () => {
    const { sql } = await backend.fresh();
    await applyMigrations(sql, { dir });
    expect(await applyMigrations(sql, { dir })).toEqual({ applied: [], alreadyApplied: 2 });
    writeMigration(dir, '20250103000000_more', 'ALTER TABLE "Post" ADD COLUMN "title" TEXT;');
    expect(await applyMigrations(sql, { dir })).toEqual({ applied: ['20250103000000_more'], alreadyApplied: 2 });
    expect((await sql.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0]).toEqual({ n: 3 });
  });

  it('refuses when an applied migration was edited (but tolerates CRLF line endings)', async () => {
    const { sql } = await backend.fresh();
    await applyMigrations(sql, { dir });
    const file = path.join(dir, M1, 'migration.sql');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/\n/g, '\r\n')); // what git autocrlf does
    expect(await applyMigrations(sql, { dir })).toEqual({ applied: [], alreadyApplied: 2 });
    writeFileSync(file, original + '-- sneaky edit\n');
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/20250101000000_init was modified after it was applied/);
  });

  it('records a failing migration, rolls it back, and blocks later runs until resolved', async () => {
    const { sql } = await backend.fresh();
    await applyMigrations(sql, { dir });
    const bad = '20250104000000_bad';
    writeMigration(dir, bad, 'CREATE TABLE "Half" ("id" INT);\nSELECT no_such_function();\n');
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/20250104000000_bad failed to apply[\s\S]*no_such_function/);

    const { rows } = await sql.query<Record<string, unknown>>('SELECT * FROM _prisma_migrations WHERE migration_name = $1', [bad]);
    expect(rows).toHaveLength(1);
    expect(rows[0].finished_at).toBeNull();
    expect(rows[0].rolled_back_at).toBeNull();
    expect(rows[0].applied_steps_count).toBe(0);
    expect(String(rows[0].logs)).toMatch(/no_such_function/);
    // The whole script was rolled back.
    expect((await sql.query(`SELECT to_regclass('"Half"') AS t`)).rows[0]).toEqual({ t: null });

    // Blocks every later run, even with the file fixed, until it is marked rolled back.
    writeMigration(dir, bad, 'CREATE TABLE "Half" ("id" INT);\n');
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/previous migration failed[\s\S]*20250104000000_bad/);
    await sql.query(`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1 AND finished_at IS NULL`, [bad]);
    expect(await applyMigrations(sql, { dir })).toEqual({ applied: [bad], alreadyApplied: 2 });
  });

  it('refuses a migrations folder for another provider', async () => {
    const { sql } = await backend.fresh();
    writeFileSync(path.join(dir, 'migration_lock.toml'), 'provider = "sqlite"\n');
    await expect(applyMigrations(sql, { dir })).rejects.toThrow(/provider "sqlite"/);
  });

  // PGlite has one connection per process, so only PostgreSQL can race.
  if (backend.name === 'PostgreSQL') it('applies once when two processes start at the same time', async () => {
    const db = await backend.fresh();
    // A slow migration keeps the first caller inside the lock while the others arrive.
    writeMigration(dir, '20250105000000_slow', 'SELECT pg_sleep(0.5);\nCREATE TABLE "Slow" ("id" INT);\n');
    const conns = await Promise.all([db.connect(), db.connect(), db.connect()]);
    const results = await Promise.all(conns.map((c) => applyMigrations(c.sql, { dir })));
    const appliedBy = results.filter((r) => r.applied.length > 0);
    expect(appliedBy).toHaveLength(1);
    expect(appliedBy[0].applied).toEqual([M1, M2, '20250105000000_slow']);
    expect(results.filter((r) => r.applied.length === 0).map((r) => r.alreadyApplied)).toEqual([3, 3]);
    expect((await db.sql.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0]).toEqual({ n: 3 });
    // The lock was released by every caller.
    // (pg_locks is the whole server's: only this database's lock counts, other test files migrate meanwhile.)
    const locks = await db.sql.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    expect(locks.rows).toHaveLength(0);
    await Promise.all(conns.map((c) => c.close()));
  });

  if (backend.name === 'PostgreSQL') it('applies once when two separate processes start at once', async () => {
    const db = await backend.fresh();
    writeMigration(dir, '20250105000000_slow', 'SELECT pg_sleep(0.5);\nCREATE TABLE "Slow" ("id" INT);\n');
    const { rows } = await db.sql.query<{ d: string }>('SELECT current_database() AS d');
    const url = new URL(ADMIN_URL);
    url.pathname = `/${rows[0].d}`;
    // Each child opens its own connection and prints what it applied.
    const code = `
      const pg = require('pg');
      const { applyMigrations } = require(${JSON.stringify(path.join(__dirname, 'migrate.ts'))});
      const { sqlClientFromPg } = require(${JSON.stringify(path.join(__dirname, 'sql-client.ts'))});
      const c = new pg.Client({ connectionString: process.env.URL });
      c.connect().then(() => applyMigrations(sqlClientFromPg(c), { dir: process.env.DIR }))
        .then((r) => { console.log(JSON.stringify(r)); return c.end(); })
        .catch((e) => { console.error(e); process.exit(1); });`;
    const tsx = path.resolve(__dirname, '../../node_modules/.bin/tsx');
    const run = () => promisify(execFile)(tsx, ['--eval', code], { env: { ...process.env, URL: url.toString(), DIR: dir } });
    const outs = await Promise.all([run(), run()]);
    const results = outs.map((o) => JSON.parse(o.stdout.trim().split('\n').pop()!));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 3]);
    expect((await db.sql.query('SELECT count(*)::int AS n FROM _prisma_migrations')).rows[0]).toEqual({ n: 3 });
  }, 60_000);
});
