// Applies the committed Prisma migrations (prisma/migrations/<name>/migration.sql) at start-up, on
// PostgreSQL or embedded PGlite, without any Prisma engine: Prisma 7's CLI cannot fetch its native schema
// engine offline, and the app must not depend on it to boot.
//
// The bookkeeping is Prisma's own, so `prisma migrate deploy` / `migrate status` accept a database migrated
// here (and vice versa):
// - the same advisory lock key Prisma takes (72707369), so this runner, other instances of the app and
//   Prisma's CLI never migrate the same database at once;
// - the `_prisma_migrations` table with the DDL embedded in schema-engine-wasm 8.1.0-2.59be4fda (copied
//   from the strings of node_modules/@prisma/schema-engine-wasm/schema_engine_bg.wasm);
// - checksum = SHA-256 hex of the migration.sql bytes (what the engine's render_checksum computes);
// - a row whose finished_at and rolled_back_at are both NULL is a failed migration and blocks everything
//   (Prisma's P3009); rows with rolled_back_at set are ignored, so the migration counts as pending again.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlClient } from './sql-client';

/** Prisma's advisory lock key for migrations (the engine runs `SELECT pg_advisory_lock(72707369)`). */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

// Verbatim column list of the engine's PostgreSQL DDL. Only IF NOT EXISTS is ours: the engine checks for
// the table first, we let PostgreSQL do that.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

export interface ApplyMigrationsOptions {
  /** Folder holding <name>/migration.sql; default <cwd>/prisma/migrations (Next and our scripts run from the repo root). */
  dir?: string;
  log?: (line: string) => void;
  /**
   * Takes the migration lock and returns its release. Default: a session-level pg_advisory_lock on `sql`'s
   * connection; behind a transaction pooler, a transaction lock held by another connection (pooler.ts).
   */
  lock?: (key: number) => Promise<() => Promise<void>>;
}

export interface ApplyMigrationsResult {
  /** Names applied by this call, in order. */
  applied: string[];
  /** Migrations of the folder that were already applied before this call. */
  alreadyApplied: number;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export interface MigrationFile {
  name: string;
  script: string;
  checksum: string;
}

export function defaultMigrationsDir(): string {
  return path.resolve(process.cwd(), 'prisma', 'migrations');
}

export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The engine also accepts a file whose line endings git converted (CRLF <-> LF) since it was applied. */
function checksumMatches(script: Buffer, recorded: string): boolean {
  const text = script.toString('utf8');
  return [script, text.replace(/\r\n/g, '\n'), text.replace(/\r?\n/g, '\r\n')].some(
    (variant) => migrationChecksum(variant) === recorded,
  );
}

/** The migration folders in apply order (by name, like Prisma), read from disk. */
export function readMigrations(dir: string): (MigrationFile & { bytes: Buffer })[] {
  if (!existsSync(dir)) throw new MigrationError(`migrations folder not found: ${dir}`);
  const lockPath = path.join(dir, 'migration_lock.toml');
  if (existsSync(lockPath)) {
    const provider = /provider\s*=\s*"([^"]*)"/.exec(readFileSync(lockPath, 'utf8'))?.[1];
    if (provider && provider !== 'postgresql') {
      throw new MigrationError(`${lockPath} says provider "${provider}", this database is postgresql`);
    }
  }
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b)); // Prisma's CLI orders the folders exactly like this
  return names.map((name) => {
    const file = path.join(dir, name, 'migration.sql');
    if (!existsSync(file)) throw new MigrationError(`migration folder without migration.sql: ${path.join(dir, name)}`);
    const bytes = readFileSync(file);
    return { name, bytes, script: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
  });
}

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
  logs: string | null;
}

export async function applyMigrations(
  sql: SqlClient,
  options: ApplyMigrationsOptions = {},
): Promise<ApplyMigrationsResult> {
  const dir = options.dir ?? defaultMigrationsDir();
  const log = options.log ?? (() => {});
  const migrations = readMigrations(dir);

  // Session-level lock: waits (without a time limit, unlike Prisma's 10 s) while another process migrates,
  // which then finds everything applied. Released in `finally`, or by PostgreSQL if the session dies.
  const unlock = options.lock
    ? await options.lock(PRISMA_MIGRATE_LOCK_KEY)
    : await sql.query(`SELECT pg_advisory_lock(${PRISMA_MIGRATE_LOCK_KEY})`).then(() => async () => {
        await sql.query(`SELECT pg_advisory_unlock(${PRISMA_MIGRATE_LOCK_KEY})`);
      });
  try {
    await sql.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await sql.query<MigrationRow>(
      'SELECT id, checksum, migration_name, finished_at, rolled_back_at, logs FROM _prisma_migrations ORDER BY started_at, migration_name',
    );

    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      const details = failed.map((r) => `  - ${r.migration_name}${r.logs ? `: ${r.logs.split('\n')[0]}` : ''}`);
      throw new MigrationError(
        [
          `A previous migration failed; refusing to apply more (Prisma P3009). Failed:`,
          ...details,
          `Fix the database by hand, then mark it rolled back (equivalent of \`prisma migrate resolve --rolled-back <name>\`):`,
          `  UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = '<name>' AND finished_at IS NULL;`,
          `or, if you completed it by hand, \`prisma migrate resolve --applied <name>\`.`,
        ].join('\n'),
      );
    }

    const live = rows.filter((r) => r.rolled_back_at === null); // finished, since none failed
    const pending: MigrationFile[] = [];
    let alreadyApplied = 0;
    for (const m of migrations) {
      const row = live.find((r) => r.migration_name === m.name);
      if (!row) {
        pending.push(m);
        continue;
      }
      if (!checksumMatches(m.bytes, row.checksum)) {
        throw new MigrationError(
          `Migration ${m.name} was modified after it was applied: the database recorded checksum ${row.checksum}, ` +
            `${path.join(dir, m.name, 'migration.sql')} now has ${m.checksum}. ` +
            `Restore the committed file and put further changes in a new migration (npm run db:migration -- <name>).`,
        );
      }
      alreadyApplied++;
    }
    const onDisk = new Set(migrations.map((m) => m.name));
    for (const r of live) {
      if (!onDisk.has(r.migration_name)) log(`migrate: ${r.migration_name} is applied but missing from ${dir}`);
    }

    if (pending.length === 0) log(`migrate: ${alreadyApplied} migration(s) already applied, nothing to do`);
    const applied: string[] = [];
    for (const m of pending) {
      await applyOne(sql, m, log);
      applied.push(m.name);
    }
    return { applied, alreadyApplied };
  } finally {
    await unlock().catch(() => {});
  }
}

async function applyOne(sql: SqlClient, m: MigrationFile, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  log(`migrate: applying ${m.name}`);
  const id = randomUUID();
  // Recorded before running, outside the transaction (as Prisma does): if the script fails, or the process
  // dies half-way, the row stays with finished_at NULL and blocks later runs until someone looks.
  await sql.query(
    'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
    [id, m.checksum, m.name],
  );
  try {
    // Prisma sends the whole script as one simple-protocol query, i.e. one implicit transaction; an explicit
    // transaction does the same and also commits the bookkeeping atomically with the schema change.
    await sql.exec('BEGIN');
    await sql.exec(m.script);
    await sql.query(
      'UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1, logs = NULL WHERE id = $1',
      [id],
    );
    await sql.exec('COMMIT');
  } catch (err) {
    await sql.exec('ROLLBACK').catch(() => {});
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown }).code;
    const logs = `Migration ${m.name} failed to apply.\n${typeof code === 'string' ? `Database error code: ${code}\n` : ''}${message}`;
    await sql.query('UPDATE _prisma_migrations SET logs = $2 WHERE id = $1', [id, logs]).catch(() => {});
    throw new MigrationError(`${logs}\nNothing of it was committed; the failure is recorded in _prisma_migrations.`, {
      cause: err,
    });
  }
  log(`migrate: applied ${m.name} (${Date.now() - started} ms)`);
}
