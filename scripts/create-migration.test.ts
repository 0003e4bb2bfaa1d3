// Runs the real `db:migration` script on a temp schema and a temp migrations folder, then checks the result with
// applyMigrations and with Prisma's own engine. The script's `main` runs in this process (each tsx start cost ~2 s
// of an ~4 s run); `--help`, a missing name and one `--check` go through tsx as `npm run db:migration` does.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { applyMigrations } from '../server/db/migrate';
import { sqlClientFromPglite } from '../server/db/sql-client';
import { main, openSchemaEngine, readMigrationsList, readSchemaFiles, snakeName } from './create-migration';

const REPO = path.resolve(__dirname, '..');
const TSX = path.join(REPO, 'node_modules', '.bin', 'tsx');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sb-create-migration-'));
const schemaPath = path.join(tmp, 'schema.prisma');
const dir = path.join(tmp, 'migrations');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HEADER = `generator client {\n  provider = "prisma-client"\n  output   = "./generated"\n}\n\ndatasource db {\n  provider = "postgresql"\n}\n`;
const V1 = `${HEADER}
model Widget {
  id        String   @id @default(cuid())
  name      String   @unique
  priceMicros BigInt @default(0)
  createdAt DateTime @default(now())
}
`;
const V2 = `${V1}
enum Color {
  RED
  BLUE
}

model Gadget {
  id       Int    @id @default(autoincrement())
  widgetId String
  widget   Widget @relation(fields: [widgetId], references: [id])
  color    Color  @default(RED)
  @@index([widgetId])
}
`.replace('  createdAt DateTime @default(now())\n}', '  createdAt DateTime @default(now())\n  gadgets   Gadget[]\n}');

/** The script as a command: tsx, as `npm run db:migration` runs it. */
function spawnScript(...args: string[]) {
  const r = spawnSync(TSX, ['scripts/create-migration.ts', ...args, '--schema', schemaPath, '--dir', dir], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '' },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}
/** The script's `main` in this process, with what it prints. */
async function run(...args: string[]) {
  const printed: string[] = [];
  const capture = (...parts: unknown[]) => void printed.push(parts.join(' '));
  const log = vi.spyOn(console, 'log').mockImplementation(capture);
  const error = vi.spyOn(console, 'error').mockImplementation(capture);
  try {
    const code = await main([...args, '--schema', schemaPath, '--dir', dir]);
    return { code, out: printed.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
const migrationFolders = () => (existsSync(dir) ? readdirSync(dir).filter((n) => n !== 'migration_lock.toml').sort() : []);

describe('npm run db:migration', () => {
  it('snake_cases names', () => {
    expect(snakeName('Add usage index!')).toBe('add_usage_index');
    expect(snakeName('addUsageIndex')).toBe('add_usage_index');
    expect(() => snakeName('!!!')).toThrow(/not a usable migration name/);
  });

  it('prints help, and refuses a missing name (through tsx)', () => {
    const help = spawnScript('--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Usage: npm run db:migration -- <name>/);
    const none = spawnScript();
    expect(none.code).toBe(2);
    expect(none.out).toMatch(/Give exactly one migration name/);
  });

  it('authors the initial migration, then --check passes (through tsx too) and a re-run writes nothing', async () => {
    writeFileSync(schemaPath, V1);
    expect((await run('--check')).code).toBe(1); // nothing committed yet: the schema is ahead

    const init = await run('init');
    expect(init.code, init.out).toBe(0);
    const [first] = migrationFolders();
    expect(first).toMatch(/^\d{14}_init$/);
    const sql = readFileSync(path.join(dir, first, 'migration.sql'), 'utf8');
    expect(sql).toContain('CREATE TABLE "Widget"');
    expect(sql).toContain('"priceMicros" BIGINT NOT NULL DEFAULT 0');
    expect(sql).toContain('CREATE UNIQUE INDEX "Widget_name_key"');
    expect(init.out).toContain(`Wrote`);
    expect(readFileSync(path.join(dir, 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');

    const check = spawnScript('--check');
    expect(check.code, check.out).toBe(0);
    expect(check.out).toMatch(/In sync/);
    const again = await run('again');
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/No schema changes/);
    expect(migrationFolders()).toEqual([first]);
  }, 180_000);

  it('authors only the difference for a schema change, and --check reports a forgotten migration', async () => {
    writeFileSync(schemaPath, V2);
    const forgotten = await run('--check');
    expect(forgotten.code).toBe(1);
    expect(forgotten.out).toMatch(/has changes that no migration[\s\S]*CREATE TABLE "Gadget"/);

    const add = await run('Add gadgets');
    expect(add.code, add.out).toBe(0);
    const folders = migrationFolders();
    expect(folders).toHaveLength(2);
    expect(folders[1]).toMatch(/^\d{14}_add_gadgets$/);
    const sql = readFileSync(path.join(dir, folders[1], 'migration.sql'), 'utf8');
    expect(sql).toContain(`CREATE TYPE "Color" AS ENUM ('RED', 'BLUE')`);
    expect(sql).toContain('CREATE TABLE "Gadget"');
    expect(sql).toContain('FOREIGN KEY ("widgetId") REFERENCES "Widget"("id")');
    expect(sql).not.toContain('CREATE TABLE "Widget"');
    expect((await run('--check')).code).toBe(0);
  }, 180_000);

  it("produces a history that applyMigrations applies and Prisma's engine accepts as up to date", async () => {
    const handle = await openSchemaEngine(readSchemaFiles(schemaPath));
    try {
      const result = await applyMigrations(sqlClientFromPglite(handle.main), { dir });
      expect(result.applied).toEqual(migrationFolders());
      const migrationsList = readMigrationsList(dir);
      // What `prisma migrate status` asks: checksums, failures, history all fine.
      const diagnosis = await handle.engine.diagnoseMigrationHistory({
        migrationsList,
        optInToShadowDatabase: true,
        filters: { externalTables: [], externalEnums: [] },
      });
      expect(diagnosis).toMatchObject({ history: null, failedMigrationNames: [], editedMigrationNames: [], hasMigrationsTable: true });
      // What `prisma migrate deploy` does: nothing left to apply.
      const deploy = await handle.engine.applyMigrations({ migrationsList, filters: { externalTables: [], externalEnums: [] } });
      expect(deploy.appliedMigrationNames).toEqual([]);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it('reports a broken committed migration clearly', async () => {
    const bad = path.join(dir, '29991231000000_broken');
    rmSync(bad, { recursive: true, force: true });
    mkdirSync(bad);
    writeFileSync(path.join(bad, 'migration.sql'), 'ALTER TABLE "Nope" ADD COLUMN "x" INT;\n');
    const r = await run('--check');
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/29991231000000_broken failed to apply[\s\S]*"Nope" does not exist/);
    rmSync(bad, { recursive: true, force: true });
  }, 120_000);
});
