// A minimal SQL surface shared by PostgreSQL (pg) and embedded PGlite, so code that must run before
// Prisma is up (applying migrations, health checks) is written once for both.
//
// Both wrappers talk to ONE session: a pg.Client / checked-out pg.PoolClient, or the single PGlite
// instance. That matters: session-level advisory locks and BEGIN … COMMIT only work when every statement
// goes through the same connection (a pg.Pool would hand each query to a different one).
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import type { Client, PoolClient } from 'pg';

export interface SqlClient {
  /** One statement, with $1… placeholders. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** A multi-statement script, no parameters (simple query protocol). */
  exec(script: string): Promise<void>;
}

export function sqlClientFromPg(client: Client | PoolClient): SqlClient {
  return {
    async query<T = Record<string, unknown>>(text: string, params?: unknown[]) {
      const r = await client.query(text, params as unknown[] | undefined);
      return { rows: r.rows as T[] };
    },
    async exec(script: string) {
      // Without parameters pg uses the simple query protocol, which accepts several statements.
      await client.query(script);
    },
  };
}

/** Takes a PGlite, or anything shaped like one (e.g. what `pglite.clone()` returns). */
export function sqlClientFromPglite(db: PGlite | PGliteInterface): SqlClient {
  return {
    async query<T = Record<string, unknown>>(text: string, params?: unknown[]) {
      const r = await db.query<T>(text, params as unknown[] | undefined);
      return { rows: r.rows };
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}
