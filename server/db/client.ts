// The Prisma client, on embedded PGlite (DATABASE_URL unset) or PostgreSQL through the pg driver adapter.
//
// One instance per process, kept on globalThis: in production the custom server (dist/server.js) and
// Next's own server bundle are two copies of this module in one process, and PGlite allows exactly one
// opener of a data directory, so whichever copy asks first opens the database and the other reuses it.
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { env } from '@/server/env';
import { PrismaClient } from './generated/client';
import { applyMigrations } from './migrate';
import { parseDatabaseUrl, transactionScopedLock } from './pooler';
import { ensureOwnerOnlyDir, restrictUmask, tightenTree } from './owner-only-files';
import { PGliteThread } from './pglite-thread';
import { sqlClientFromPg, sqlClientFromPglite, type SqlClient } from './sql-client';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';

export type Db = PrismaClient;

export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** A plain SQL client on the same database, for migrations and health checks. */
  sql: SqlClient;
  /** Embedded only: the OS thread id of the thread PGlite runs on (0 where unknown). */
  dbThreadId?: number;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgresql://… ; undefined opens the embedded database in dataDir. */
  databaseUrl?: string;
  dataDir?: string;
  /** Apply committed migrations before returning (default true). */
  migrate?: boolean;
  /** pg pool size (default 10). */
  poolSize?: number;
  /**
   * PostgreSQL: run the chat path's statements as named prepared statements (default true). Off behind a
   * transaction-pooling pooler, and always off with `?pgbouncer=true` on the URL (pooler.ts).
   */
  preparedStatements?: boolean;
  /**
   * PostgreSQL: connections (at most this many; 0 or unset: none) for statements run with
   * QueryOptions.asyncCommit, whose commits do not wait for the disk (synchronous_commit=off).
   */
  asyncCommitPoolSize?: number;
  log?: (line: string) => void;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  if (options.databaseUrl) {
    const url = parseDatabaseUrl(options.databaseUrl);
    const pooler = url.pooler || options.preparedStatements === false;
    const pool = new pg.Pool({ connectionString: url.connectionString, max: options.poolSize ?? 10 });
    pool.on('error', (err) => log(`database pool error: ${err.message}`));
    // Connections whose commits do not wait for the WAL flush (QueryOptions.asyncCommit): a commit that
    // waits costs the admission statement ~0.15 ms of the request's latency on this machine's disk, more on
    // a network disk. Not behind a transaction pooler: it would hand the session setting to anyone.
    const asyncPool =
      !pooler && options.asyncCommitPoolSize
        ? new pg.Pool({ connectionString: url.connectionString, max: options.asyncCommitPoolSize, options: '-c synchronous_commit=off' })
        : null;
    asyncPool?.on('error', (err) => log(`database pool error: ${err.message}`));
    const sql: SqlClient = {
      async query(text, params, queryOptions) {
        const p = (queryOptions?.asyncCommit && asyncPool) || pool;
        const r = queryOptions?.name && !pooler ? await p.query({ name: queryOptions.name, text, values: params }) : await p.query(text, params as unknown[]);
        return { rows: r.rows };
      },
      async exec(script) {
        await pool.query(script);
      },
    };
    if (options.migrate !== false) {
      const client = await pool.connect();
      let holder: pg.PoolClient | null = null;
      try {
        if (pooler) holder = await pool.connect(); // holds the lock's transaction (pooler.ts)
        await applyMigrations(sqlClientFromPg(client), { log, lock: holder ? (key) => transactionScopedLock(holder!, key) : undefined });
      } finally {
        client.release();
        holder?.release();
      }
    }
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      kind: 'postgres',
      sql,
      close: once(async () => {
        await prisma.$disconnect();
        await Promise.all([pool.end().catch(() => {}), asyncPool?.end().catch(() => {})]);
      }),
    };
  }

  // turbopackIgnore: the data directory is chosen at run time, it is not part of the build's file trace.
  const dataDir = path.resolve(/*turbopackIgnore: true*/ options.dataDir ?? './.data');
  // Owner-only: what PGlite writes from now on (umask), the directory itself, and whatever an earlier run left loose.
  restrictUmask();
  ensureOwnerOnlyDir(dataDir);
  tightenTree(dataDir);
  const lock: DataDirLock = acquireDataDirLock(dataDir);
  let pglite: PGliteThread;
  try {
    pglite = await PGliteThread.open(path.join(/*turbopackIgnore: true*/ dataDir, 'pglite'));
  } catch (err) {
    lock.release();
    throw err;
  }
  const sql = sqlClientFromPglite(pglite);
  if (options.migrate !== false) await applyMigrations(sql, { log });
  // PGlite sets some files' modes itself (the relcache init files it writes at start are 0644): tighten again.
  tightenTree(dataDir);
  // The adapter needs only query(), exec() and transaction(), which the thread's client provides.
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite as unknown as PGlite) });
  return {
    prisma,
    kind: 'pglite',
    sql,
    dbThreadId: pglite.threadId,
    close: once(async () => {
      await prisma.$disconnect();
      // $disconnect does not close PGlite.
      await pglite.close();
      tightenTree(dataDir);
      lock.release();
    }),
  };
}

const GLOBAL_KEY = Symbol.for('switchboard.database');
type GlobalWithDb = typeof globalThis & { [GLOBAL_KEY]?: Promise<Database> };

/** The process-wide database, opened (and migrated) on first use from the environment. */
export function database(): Promise<Database> {
  const g = globalThis as GlobalWithDb;
  if (g[GLOBAL_KEY]) return g[GLOBAL_KEY];
  const opening: Promise<Database> = openDatabase({
    databaseUrl: env().DATABASE_URL,
    dataDir: env().dataDir,
    preparedStatements: env().DATABASE_PREPARED_STATEMENTS,
    // As many as the admission batcher sends at once (ledger/key-admission-batcher.ts MAX_IN_FLIGHT).
    asyncCommitPoolSize: env().ADMISSION_ASYNC_COMMIT ? 6 : 0,
    log: (line) => {
      if (env().LOG_LEVEL !== 'silent') console.log(line);
    },
  }).catch((err) => {
    // Forget this attempt only: a database set meanwhile (setDatabase) must not be dropped by its failure.
    if (g[GLOBAL_KEY] === opening) delete g[GLOBAL_KEY];
    throw err;
  });
  return (g[GLOBAL_KEY] = opening);
}

/** Shorthand for services: the Prisma client of the process-wide database. */
export async function db(): Promise<PrismaClient> {
  return (await database()).prisma;
}

/** Use an already-open database as the process-wide one (tests, the CLI). */
export function setDatabase(d: Database): void {
  (globalThis as GlobalWithDb)[GLOBAL_KEY] = Promise.resolve(d);
}

export async function closeDatabase(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const p = g[GLOBAL_KEY];
  delete g[GLOBAL_KEY];
  if (p) await (await p).close();
}
