// A minimal SQL surface shared by PostgreSQL (pg) and embedded PGlite, so code that must run before
// Prisma is up (applying migrations, health checks) is written once for both.
//
// Both wrappers talk to ONE session: a pg.Client / checked-out pg.PoolClient, or the single PGlite
// instance. That matters: session-level advisory locks and BEGIN … COMMIT only work when every statement
// goes through the same connection (a pg.Pool would hand each query to a different one).
import { parse as pgliteParse, protocol, type PGlite, type PGliteInterface } from '@electric-sql/pglite';
import type { Client, PoolClient } from 'pg';

export interface QueryOptions {
  /**
   * Run as a named prepared statement: parsed and planned once per connection (PostgreSQL) or once per
   * instance (PGlite), then only bound and executed. For the few statements on the request path; the name
   * must identify the text (one name, one text). Parameters are sent as text: cast them in the SQL.
   */
  name?: string;
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

/** Takes a PGlite, or anything shaped like one (e.g. what `pglite.clone()` returns). */
export function sqlClientFromPglite(db: PGlite | PGliteInterface): SqlClient {
  const fast = preparedRunner(db);
  return {
    async query<T = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions) {
      if (options?.name && fast) return { rows: await fast<T>(options.name, text, params ?? []) };
      const r = await db.query<T>(text, params as unknown[] | undefined);
      return { rows: r.rows };
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}

/**
 * PGlite runs a parameterised query() as six separate calls into the WASM backend (parse, describe, bind,
 * describe, execute, sync), parsing and planning the text every time. A named statement run as one
 * message batch (bind, describe, execute, sync; parse only the first time) costs one call and no
 * re-planning. Same exclusivity as query(): it waits for any open transaction and any running query.
 * Uses PGlite's protocol-level API (execProtocol, protocol.serialize, parse.parseResults) and its two
 * mutexes; undefined (plain query()) when this PGlite does not have them.
 */
function preparedRunner(db: PGlite | PGliteInterface) {
  const pg = db as PGlite & { _runExclusiveTransaction?: <R>(fn: () => Promise<R>) => Promise<R>; parsers?: Record<number, (x: string, typeId?: number) => unknown> };
  if (typeof pg._runExclusiveTransaction !== 'function' || typeof pg.runExclusive !== 'function' || typeof pg.execProtocol !== 'function' || !pg.parsers) return undefined;
  const s = protocol.serialize;
  const prepared = new Set<string>();
  const text = (v: unknown): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
  return async function run<T>(name: string, sql: string, params: unknown[]): Promise<T[]> {
    // Not yet prepared (or a previous attempt failed somewhere): close any leftover of the name, parse again.
    const head = prepared.has(name) ? [] : [s.close({ type: 'S', name }), s.parse({ name, text: sql })];
    const parts = [...head, s.bind({ statement: name, values: params.map(text) }), s.describe({ type: 'P' }), s.execute({}), s.sync()];
    const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      message.set(p, at);
      at += p.length;
    }
    return pg._runExclusiveTransaction!(() =>
      pg.runExclusive(async () => {
        try {
          const { messages } = await pg.execProtocol(message);
          prepared.add(name);
          const results = pgliteParse.parseResults(messages, pg.parsers!);
          return (results[results.length - 1]?.rows ?? []) as T[];
        } catch (err) {
          prepared.delete(name);
          throw err;
        }
      }),
    );
  };
}
