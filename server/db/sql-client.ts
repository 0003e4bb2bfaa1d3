// A minimal SQL surface shared by PostgreSQL (pg) and embedded PGlite, so code that must run before
// Prisma is up (applying migrations, health checks) is written once for both.
//
// Both wrappers talk to ONE session: a pg.Client / checked-out pg.PoolClient, or the single PGlite
// instance. That matters: session-level advisory locks and BEGIN … COMMIT only work when every statement
// goes through the same connection (a pg.Pool would hand each query to a different one).
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import { PGliteThread } from './pglite-thread';
import type { Client, PoolClient } from 'pg';

export interface QueryOptions {
  /**
   * Run as a named prepared statement: parsed and planned once per connection (PostgreSQL) or once per
   * database thread (embedded PGlite), then only bound and executed. For the few statements on the request path; the name
   * must identify the text (one name, one text). Parameters are sent as text: cast them in the SQL.
   */
  name?: string;
  /**
   * The statement (autocommit) does not wait for its commit to reach the disk: PostgreSQL's
   * synchronous_commit=off, on connections of their own (db/client.ts; ADMISSION_ASYNC_COMMIT). For the
   * admission statement only. Ignored on the embedded database and behind a transaction-pooling pooler.
   */
  asyncCommit?: boolean;
}

export interface SqlClient {
  /** One statement, with $1… placeholders. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
  /** A multi-statement script, no parameters (simple query protocol). */
  exec(script: string): Promise<void>;
}

export function sqlClientFromPg(client: Client | PoolClient): SqlClient {
  return {
    async query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions) {
      const r = options?.name ? await client.query({ name: options.name, text, values: params }) : await client.query(text, params as unknown[] | undefined);
      return { rows: r.rows as T[] };
    },
    async exec(script: string) {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await client.query(script);
    },
  };
}

/**
 * Takes the embedded database's thread (pglite-thread.ts), or a PGlite itself (e.g. what `pglite.clone()`
 * returns, in tests). On the thread, named statements are prepared once: PGlite would otherwise run a
 * parameterised query as six calls into the WASM backend, re-planning it each time. A PGlite runs them plain.
 */
export function sqlClientFromPglite(db: PGliteThread | PGlite | PGliteInterface): SqlClient {
  return {
    async query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions) {
      if (options?.name && db instanceof PGliteThread) return { rows: await db.prepared<T>(options.name, text, params ?? []) };
      const r = await db.query<T>(text, params as unknown[] | undefined);
      return { rows: r.rows };
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}
