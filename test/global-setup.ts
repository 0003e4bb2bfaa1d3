// Once per `vitest run`: a migrated PGlite template directory that each test file copies.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
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
}
