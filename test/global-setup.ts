// Once per `vitest run`: a migrated PGlite template directory that each test file copies.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations } from '../server/db/migrate';
import { sqlClientFromPglite } from '../server/db/sql-client';

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
  // Tests open their own databases. Anything that still opens the process-wide one from the environment
  // (a runtime's timer outliving its test file's database) must not create, half-migrate and lock the
  // checkout's ./.data, which `npm start` would then refuse: give the workers a scratch DATA_DIR instead.
  // Echo is free by default; tests of money use it priced (a test of the default catalog passes configFile: null).
  process.env.SWITCHBOARD_CONFIG ??= path.resolve('test/fixtures/priced-echo.yaml');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'sb-test-data-'));
  process.env.DATA_DIR = scratch;
  return () => rmSync(scratch, { recursive: true, force: true });
}
