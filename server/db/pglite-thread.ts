// The embedded database (PGlite) on its own thread.
//
// PGlite runs PostgreSQL compiled to WASM, synchronously, on whichever thread calls it. On the server's main
// thread that is about half of the CPU of a chat request at load, and every statement blocks the event loop
// (streams and other requests wait behind it). Here PGlite lives in a worker thread; the main thread keeps
// only a thin client that posts statements and parses the (text) results with PGlite's own type parsers.
//
// The client offers the part of PGlite's interface that Prisma's PGlite adapter and our SQL client use —
// query(), exec(), transaction() — with PGlite's semantics: one session, statements run in the order
// they were issued, a transaction has the session to itself (other statements wait until it ends).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, types, type Results, type Transaction } from '@electric-sql/pglite';
import { PGLITE_WORKER_SOURCE } from './pglite-worker-source';

type Parser = (value: string, typeId?: number) => unknown;
interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, Parser>;
}
interface Packed {
  fields: { name: string; dataTypeID: number }[];
  rows: (string | null)[][];
  affectedRows?: number;
  rowCount?: number;
  command?: string;
}
interface PackedError {
  message: string;
  database: boolean;
  fields: Record<string, unknown>;
}
type Reply = { id: number; ok: unknown } | { id: number; err: PackedError };
/** A statement waiting for an open transaction to end (tx false), or a transaction waiting for its turn. */
type Waiter = { tx: boolean; go: () => void };

/**
 * PGlite's CommonJS entry, resolved from this module or, where a bundle hides this module's location (Next's
 * dev server), from the working directory. The specifier is built at run time on purpose: bundlers rewrite a
 * literal `require.resolve('…')` of an external package into their own module id, which the worker cannot load.
 */
function pgliteEntry(): string {
  const specifier = ['@electric-sql', 'pglite'].join('/');
  for (const from of [import.meta.url, path.join(process.cwd(), 'package.json')]) {
    try {
      const resolved = createRequire(from).resolve(specifier);
      if (path.isAbsolute(resolved) && existsSync(resolved)) return resolved;
    } catch {
      // try the next base
    }
  }
  throw new Error(`Cannot find ${specifier} (from ${import.meta.url} or ${process.cwd()}): run npm install`);
}

/** PostgreSQL's buffer cache in the embedded database (see pglite-worker-source.ts); PGlite's default is 128MB. */
const SHARED_BUFFERS = '32MB';

interface Ready {
  threadId: number;
  arrayTypes: { oid: number; typarray: number }[];
}

/** Starts a database thread and waits for it to have opened PGlite. */
async function startWorker(workerData: { entry: string; dataDir: string | undefined; initOnly?: boolean; sharedBuffers: string }): Promise<{ worker: Worker; ready: Ready }> {
  const worker = new Worker(PGLITE_WORKER_SOURCE, { eval: true, workerData });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`The embedded database thread exited while opening (code ${code})`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (m: { ready?: Ready; failed?: { message: string } }) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      if (m.failed) reject(new Error(m.failed.message));
      else resolve(m.ready!);
    });
  }).catch(async (err) => {
    await worker.terminate();
    throw err;
  });
  return { worker, ready };
}

export class PGliteThread {
  /** PGlite's parsers by type OID (its defaults plus the array types of this database). */
  readonly parsers: Record<number, Parser> = { ...(types.parsers as Record<number, Parser>) };
  /** The OS thread id of the database thread (Linux), 0 where unknown. */
  threadId = 0;
  #worker: Worker;
  #next = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  #waiters: Waiter[] = [];
  #inTransaction = false;
  #failure: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /** Opens (creating if needed) the database in dataDir; undefined opens an in-memory one. */
  static async open(dataDir: string | undefined): Promise<PGliteThread> {
    const entry = pgliteEntry();
    // Creating a database (initdb) runs a second WASM instance, and PGlite keeps its memory referenced: ~430 MB
    // this thread could never give back. A thread of its own creates the database and exits, freeing it.
    if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) {
      const init = await startWorker({ entry, dataDir, initOnly: true, sharedBuffers: SHARED_BUFFERS });
      await init.worker.terminate();
    }
    const { worker, ready } = await startWorker({ entry, dataDir, sharedBuffers: SHARED_BUFFERS });
    const t = new PGliteThread(worker);
    t.threadId = ready.threadId;
    for (const { oid, typarray } of ready.arrayTypes) {
      t.parsers[typarray] = (x) => types.arrayParser(x, t.parsers[oid], typarray);
    }
    worker.on('message', (m: Reply) => t.#settle(m));
    worker.on('error', (err) => t.#fail(new Error(`The embedded database thread failed: ${err.message}`)));
    worker.on('exit', (code) => t.#fail(new Error(`The embedded database thread exited (code ${code})`)));
    worker.unref(); // referenced only while a statement is in flight (see #send)
    return t;
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#one<T>(this.#whenFree({ op: 'query', sql, params: params ?? [] }), options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.#all(this.#whenFree({ op: 'exec', sql }), options);
  }

  /** A named prepared statement (see SqlClient's `name` option): rows as objects, PGlite's default parsers. */
  prepared<T>(name: string, sql: string, params: unknown[]): Promise<T[]> {
    return this.#one<T>(this.#whenFree({ op: 'prepared', name, sql, params })).then((r) => r.rows);
  }

  /** PGlite's transaction(): BEGIN, the callback's statements, then COMMIT (or ROLLBACK if it throws). */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.#inTransaction || this.#waiters.length > 0) await new Promise<void>((go) => this.#waiters.push({ tx: true, go }));
    this.#inTransaction = true;
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const run = async (sql: string) => {
      await this.#send({ op: 'exec', sql });
    };
    const tx = {
      // The transaction has the session: its statements are sent at once.
      query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        check();
        return this.#one<R>(this.#send({ op: 'query', sql, params: params ?? [] }), options);
      },
      exec: async (sql: string, options?: QueryOptions) => {
        check();
        return this.#all(this.#send({ op: 'exec', sql }), options);
      },
      rollback: async () => {
        check();
        closed = true; // before the await: a COMMIT must not follow (Prisma's adapter does not await this)
        await run('ROLLBACK');
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    try {
      await run('BEGIN');
      const result = await callback(tx);
      if (!closed) {
        closed = true;
        await run('COMMIT');
      }
      return result;
    } catch (err) {
      if (!closed) {
        closed = true;
        await run('ROLLBACK').catch(() => {});
      }
      throw err;
    } finally {
      this.#inTransaction = false;
      this.#drain();
    }
  }

  async close(): Promise<void> {
    if (this.#failure) return;
    await this.#whenFree({ op: 'close' });
    this.#failure = new Error('The embedded database is closed');
    await this.#worker.terminate();
  }

  /**
   * Sends a statement now (so it runs before anything issued after it) unless a transaction has the session
   * or is waiting for it; then it waits its turn.
   */
  #whenFree(message: Record<string, unknown>): Promise<unknown> {
    if (!this.#inTransaction && this.#waiters.length === 0) return this.#send(message);
    return new Promise<void>((go) => this.#waiters.push({ tx: false, go })).then(() => this.#send(message));
  }

  #drain(): void {
    while (this.#waiters.length > 0 && !this.#inTransaction) {
      const w = this.#waiters.shift()!;
      // A transaction takes the session now, synchronously, so statements queued behind it keep waiting.
      if (w.tx) this.#inTransaction = true;
      w.go();
    }
  }

  #send(message: Record<string, unknown>): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    message.id = this.#next++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(message.id as number, { resolve, reject });
      this.#worker.postMessage(message);
    });
  }

  #settle(m: Reply): void {
    const p = this.#pending.get(m.id);
    if (!p) return;
    this.#pending.delete(m.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if ('err' in m) p.reject(toError(m.err));
    else p.resolve(m.ok);
  }

  #fail(err: Error): void {
    if (this.#failure) return;
    this.#failure = err;
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
  }

  #one<T>(reply: Promise<unknown>, options?: QueryOptions): Promise<Results<T>> {
    return reply.then((r) => this.#toResults<T>(r as Packed, options));
  }

  #all(reply: Promise<unknown>, options?: QueryOptions): Promise<Results[]> {
    return reply.then((r) => (r as Packed[]).map((x) => this.#toResults(x, options)));
  }

  #toResults<T>(r: Packed, options?: QueryOptions): Results<T> {
    const { fields } = r;
    const parse = fields.map((f) => options?.parsers?.[f.dataTypeID] ?? this.parsers[f.dataTypeID]);
    const value = (v: string | null, i: number) => (v === null || !parse[i] ? v : parse[i](v, fields[i].dataTypeID));
    const rows =
      options?.rowMode === 'array'
        ? r.rows.map((row) => row.map(value))
        : r.rows.map((row) => {
            const o: Record<string, unknown> = {};
            for (let i = 0; i < fields.length; i++) o[fields[i].name] = value(row[i], i);
            return o;
          });
    const out: Results<T> = { rows: rows as Results<T>['rows'], fields, affectedRows: r.affectedRows };
    if (r.rowCount !== undefined) out.rowCount = r.rowCount;
    if (r.command !== undefined) out.command = r.command;
    return out;
  }
}

/** A PostgreSQL error from the thread becomes PGlite's DatabaseError again (Prisma's adapter maps those). */
function toError(e: PackedError): Error {
  if (!e.database) return Object.assign(new Error(e.message), e.fields);
  const err = new messages.DatabaseError(e.message, Number(e.fields.length ?? 0), 'error');
  return Object.assign(err, e.fields);
}
