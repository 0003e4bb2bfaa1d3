// Test support: a fresh database per test file, on PGlite always and on PostgreSQL when TEST_DATABASE_URL
// is set (an admin connection; each file creates and drops its own database). Both start from a migrated
// template made once per run (test/global-setup.ts): initdb and the migrations cost seconds per file.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeDatabase, openDatabase, setDatabase, type Database } from '@/server/db';
import { rawEnv } from '@/server/env';

export type DbKind = 'pglite' | 'postgres';

export function testDatabaseKinds(): DbKind[] {
  return rawEnv('TEST_DATABASE_URL') ? ['pglite', 'postgres'] : ['pglite'];
}

export function pgliteTemplateDir(): string {
  return rawEnv('SB_PGLITE_TEMPLATE') ?? path.join(os.tmpdir(), 'sb-pglite-template');
}

export interface TestDatabase {
  kind: DbKind;
  database: Database;
  url?: string;
  dispose(): Promise<void>;
}

/** @param options.empty no migrations applied (for a test of migrating itself); default: from the migrated template */
export async function createPostgresDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = rawEnv('TEST_DATABASE_URL');
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `sb_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  // From the migrated template made by test/global-setup.ts when there is one (files run without it otherwise).
  const template = options.empty ? undefined : rawEnv('SB_PG_TEMPLATE');
  await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  // A statement stuck on a lock, or a transaction left open, fails the test with PostgreSQL's own message
  // instead of hanging it to its timeout with nothing said (no test waits on a lock for this long).
  await c.query(`ALTER DATABASE ${name} SET lock_timeout = '20s'`);
  await c.query(`ALTER DATABASE ${name} SET idle_in_transaction_session_timeout = '60s'`);
  await c.end();
  const u = new URL(admin);
  u.pathname = '/' + name;
  return {
    url: u.toString(),
    async drop() {
      const c2 = new pg.Client({ connectionString: admin });
      await c2.connect();
      await c2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c2.end();
    },
  };
}

export async function openTestDatabase(kind: DbKind): Promise<TestDatabase> {
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    const database = await openDatabase({ databaseUrl: created.url, poolSize: 10, asyncCommitPoolSize: 4 });
    return {
      kind, database, url: created.url,
      async dispose() {
        await database.close();
        await created.drop();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-test-pglite-'));
  // The template is a PGlite data directory; the database lives in <DATA_DIR>/pglite (server/db/client.ts).
  cpSync(pgliteTemplateDir(), path.join(dir, 'pglite'), { recursive: true });
  const database = await openDatabase({ dataDir: dir });
  return {
    kind, database,
    async dispose() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a suite once per database kind, with that database installed as the process-wide one
 * (services call db()). Suites run one after the other within a file.
 */
export function describeEachDatabase(name: string, fn: (kind: DbKind) => void): void {
  // Without TEST_DATABASE_URL the PostgreSQL run is reported as skipped, not silently absent.
  if (!testDatabaseKinds().includes('postgres')) describe.skip(`${name} [postgres] (skipped: TEST_DATABASE_URL is not set)`, () => fn('postgres'));
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let t: TestDatabase;
      beforeAll(async () => {
        t = await openTestDatabase(kind);
        setDatabase(t.database);
      });
      afterAll(async () => {
        await closeDatabase();
        await t?.dispose();
      });
      fn(kind);
    });
  }
}
