// The body of the embedded database's thread (see pglite-thread.ts), as source text: the thread is started
// with `new Worker(source, { eval: true })`, so it works the same under the esbuild bundle (dist/server.js),
// Next's server bundle, tsx (the CLI) and Vitest, none of which need to ship or locate an extra file.
// It is plain CommonJS and only uses node: built-ins and PGlite (required from the path the main thread
// resolved), so no bundler or transpiler touches it.
//
// Protocol (one message per request, answered in order): { id, op, ... } → { id, ok } | { id, err }.
//   query    { sql, params }          PGlite's query(); rows as arrays of PostgreSQL's text (no parsing here)
//   exec     { sql }                  PGlite's exec() (simple protocol, several statements)
//   prepared { name, sql, params }    a named prepared statement: parsed once, then bind/execute in one call
//   close    {}                       closes PGlite; the thread then exits
// At start it posts { ready: { threadId, arrayTypes } } or { failed: { message } }. With workerData.initOnly it
// only creates the database (initdb), closes it and posts { ready }: see PGliteThread.open for why.
export const PGLITE_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { PGlite, protocol, parse, messages } = require(workerData.entry);

let db;
// Every known type gets the identity parser: values cross to the main thread as text and are parsed there
// (with the caller's parsers, as PGlite would). Unknown types are returned as text by PGlite anyway.
const RAW = {};
const prepared = new Set();

function pack(r) {
  return { fields: r.fields, rows: r.rows, affectedRows: r.affectedRows, rowCount: r.rowCount, command: r.command };
}

function text(v) {
  return v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v);
}

async function runPrepared(name, sql, params) {
  const s = protocol.serialize;
  // Not yet prepared (or a previous attempt failed somewhere): close any leftover of the name, parse again.
  const head = prepared.has(name) ? [] : [s.close({ type: 'S', name }), s.parse({ name, text: sql })];
  const parts = [...head, s.bind({ statement: name, values: params.map(text) }), s.describe({ type: 'P' }), s.execute({}), s.sync()];
  const message = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    message.set(p, at);
    at += p.length;
  }
  return db._runExclusiveTransaction(() =>
    db.runExclusive(async () => {
      try {
        const { messages: out } = await db.execProtocol(message);
        prepared.add(name);
        const results = parse.parseResults(out, RAW, { rowMode: 'array' });
        return pack(results[results.length - 1] ?? { rows: [], fields: [] });
      } catch (err) {
        prepared.delete(name);
        throw err;
      }
    }),
  );
}

async function run(m) {
  switch (m.op) {
    case 'query':
      return pack(await db.query(m.sql, m.params, { rowMode: 'array', parsers: RAW }));
    case 'exec':
      return (await db.exec(m.sql, { rowMode: 'array', parsers: RAW })).map(pack);
    case 'prepared':
      return runPrepared(m.name, m.sql, m.params);
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error('unknown operation ' + m.op);
  }
}

function packError(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  const fields = {};
  for (const k of Object.keys(e)) {
    const v = e[k];
    // queryOptions holds functions (parsers); the rest (code, detail, constraint, query, params…) is data.
    if (v === undefined || typeof v === 'function' || k === 'queryOptions') continue;
    fields[k] = v;
  }
  return { message: e.message, database: e instanceof messages.DatabaseError, fields };
}

let chain = Promise.resolve();
parentPort.on('message', (m) => {
  chain = chain.then(async () => {
    let reply;
    try {
      reply = { id: m.id, ok: await run(m) };
    } catch (err) {
      reply = { id: m.id, err: packError(err) };
    }
    try {
      parentPort.postMessage(reply);
    } catch (cloneErr) {
      // Something in the error could not be cloned: send what can be.
      parentPort.postMessage({ id: m.id, err: { message: reply.err ? reply.err.message : String(cloneErr), database: false, fields: {} } });
    }
    if (m.op === 'close' && reply.ok !== undefined) parentPort.close();
  });
});

// PostgreSQL's buffer cache lives in PGlite's WASM memory, resident from the start (PostgreSQL initializes it)
// and never given back: PGlite's default, 128 MB, was a quarter of the server's memory. Pages it does not hold
// are read from the OS page cache.
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=' + workerData.sharedBuffers];

(async () => {
  db = await PGlite.create(workerData.dataDir, { startParams: START_PARAMS });
  if (workerData.initOnly) {
    await db.close();
    parentPort.postMessage({ ready: { threadId: 0, arrayTypes: [] } });
    return;
  }
  const types = await db.query(
    "SELECT b.oid, b.typarray FROM pg_catalog.pg_type a LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid",
  );
  for (const oid of Object.keys(db.parsers)) RAW[oid] = (x) => x;
  let threadId = 0;
  try {
    threadId = Number(fs.readlinkSync('/proc/thread-self').split('/').pop()) || 0; // Linux: this thread's id
  } catch {}
  parentPort.postMessage({ ready: { threadId, arrayTypes: types.rows } });
})().catch((err) => parentPort.postMessage({ failed: { message: err && err.message ? err.message : String(err) } }));
`;
