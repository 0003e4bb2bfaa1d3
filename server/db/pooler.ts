// Running behind a transaction-pooling connection pooler (PgBouncer with pool_mode=transaction, as managed
// Postgres poolers run): each transaction may get a different server connection, so nothing may rely on
// session state between transactions. On PostgreSQL that rules out two things this code otherwise does:
// - named prepared statements (the chat path's sb_reserve, sb_settle_batch…: sql-client.ts) — a statement
//   prepared on one server connection is unknown on the next ("prepared statement … does not exist");
// - the migration runner's session-level advisory lock, which would stay held by whichever server connection
//   ran it. Behind a pooler the lock is taken with pg_advisory_xact_lock by a connection that keeps a
//   transaction open while another applies the migrations (a pooler pins a connection for a transaction).
// Prisma's adapter (unnamed statements, transactions on one checked-out connection) needs nothing.
//
// Pooler mode is on with `?pgbouncer=true` on DATABASE_URL (Prisma's spelling; removed before the URL reaches
// pg) or DATABASE_PREPARED_STATEMENTS=false.
import type pg from 'pg';

export interface DatabaseUrl {
  /** The URL for pg, without `pgbouncer`. */
  connectionString: string;
  /** `?pgbouncer=true` was set. */
  pooler: boolean;
}

export function parseDatabaseUrl(url: string): DatabaseUrl {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { connectionString: url, pooler: false };
  }
  const flag = u.searchParams.get('pgbouncer');
  if (flag === null) return { connectionString: url, pooler: false };
  u.searchParams.delete('pgbouncer');
  return { connectionString: u.toString(), pooler: flag === 'true' || flag === '1' };
}

/**
 * The migration lock behind a pooler: `holder` opens a transaction and takes the same advisory key as a
 * transaction lock (it conflicts with Prisma's and other instances' session locks on that key); the returned
 * function commits, which releases it. Another connection applies the migrations meanwhile.
 */
export async function transactionScopedLock(holder: pg.PoolClient, key: number): Promise<() => Promise<void>> {
  await holder.query('BEGIN');
  try {
    await holder.query(`SELECT pg_advisory_xact_lock(${Math.trunc(key)})`);
  } catch (err) {
    await holder.query('ROLLBACK').catch(() => {});
    throw err;
  }
  return async () => {
    await holder.query('COMMIT');
  };
}
