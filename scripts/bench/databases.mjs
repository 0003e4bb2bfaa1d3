// The benchmark's databases: a fresh PostgreSQL database per run (created and dropped) or a fresh embedded
// data directory, the server's environment for each, and the CLI run against them. Used by scripts/bench.mjs.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cleanups, run } from './processes.mjs';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

async function createPgDatabase() {
  const name = `sb_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(ADMIN_URL);
  u.pathname = '/' + name;
  const drop = async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  };
  cleanups.push(drop);
  return { name, url: u.toString(), drop };
}

/** A fresh database of this kind: { kind, name, url, drop, authSecret } for PostgreSQL, { kind, dataDir } embedded. */
export async function createDatabase(kind) {
  if (kind === 'postgres') return { kind, ...(await createPgDatabase()), authSecret: randomBytes(32).toString('base64url') };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-pglite-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return { kind, dataDir };
}

/** Drops the PostgreSQL database now rather than at exit. */
export async function dropDatabase(db) {
  if (!db.drop) return;
  cleanups.splice(cleanups.indexOf(db.drop), 1);
  await db.drop().catch((e) => console.error(`bench: could not drop ${db.name}: ${e.message}`));
}

export function dbEnv(db) {
  const base = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  delete base.REDIS_URL; // the rate limiter stays in memory: one process
  return db.kind === 'postgres' ? { ...base, DATABASE_URL: db.url, AUTH_SECRET: db.authSecret } : { ...base, DATA_DIR: db.dataDir };
}

export async function cli(db, args, logDir) {
  const r = await run('npx', ['tsx', 'server/cli/main.ts', ...args], { env: dbEnv(db), quiet: true, log: path.join(logDir, `${db.kind}-cli.log`) });
  if (r.code !== 0) throw new Error(`cli ${args[0]} failed: ${(r.err || r.out).trim().split('\n').slice(-3).join(' ')}`);
  return r.out.trim();
}

/** A user with credit and an API key, made with the CLI as an operator would. */
export async function mintKey(db, logDir) {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  await cli(db, ['user:create', '--email', email, '--password', 'bench-password-' + randomBytes(6).toString('hex')], logDir);
  await cli(db, ['credits:grant', '--email', email, '--amount', '100000', '--note', 'npm run bench'], logDir);
  const key = JSON.parse((await cli(db, ['key:create', '--email', email, '--name', 'bench', '--json'], logDir)).split('\n').pop()).key;
  if (!key) throw new Error('key:create returned no key');
  return key;
}

export function redact(u) {
  try {
    const x = new URL(u);
    if (x.password) x.password = '***';
    return x.toString();
  } catch {
    return u;
  }
}
