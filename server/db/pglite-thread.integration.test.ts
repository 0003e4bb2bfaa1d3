// The embedded database's thread client (pglite-thread.ts) keeps PGlite's semantics across the thread
// boundary: statement order, a transaction owning the session, PostgreSQL errors as PGlite's DatabaseError,
// PGlite's type parsing (including arrays and caller-supplied parsers), and a clean close.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplateDir } from '@/test/db';
import { PGliteThread } from './pglite-thread';
import { sqlClientFromPglite } from './sql-client';

describe('PGliteThread', () => {
  let dir: string;
  let db: PGliteThread;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sb-pglite-thread-'));
    cpSync(pgliteTemplateDir(), path.join(dir, 'pglite'), { recursive: true });
    db = await PGliteThread.open(path.join(dir, 'pglite'));
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, note text, tags text[], at timestamptz, n numeric)');
  });

  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs on another thread and parses results like PGlite (objects, arrays, caller parsers)', async () => {
    if (process.platform === 'linux') expect(db.threadId).toBeGreaterThan(0);
    await db.query('INSERT INTO t VALUES ($1, $2, $3, $4, $5)', [1, 'one', ['a', 'b,c'], new Date('2026-01-02T03:04:05Z'), '1.50']);
    const { rows, fields } = await db.query<{ id: number; note: string; tags: string[]; at: Date; n: string }>('SELECT * FROM t WHERE id = $1', [1]);
    expect(fields.map((f) => f.name)).toEqual(['id', 'note', 'tags', 'at', 'n']);
    expect(rows).toEqual([{ id: 1, note: 'one', tags: ['a', 'b,c'], at: new Date('2026-01-02T03:04:05Z'), n: '1.50' }]);

    const asArrays = await db.query('SELECT id, at FROM t', [], { rowMode: 'array', parsers: { 1184: (s: string) => `ts:${s}` } });
    expect(asArrays.rows).toEqual([[1, 'ts:2026-01-02 03:04:05+00']]);
    expect((await db.query('UPDATE t SET note = note WHERE id > 0')).affectedRows).toBe(1);
  });

  it('reports PostgreSQL errors as PGlite DatabaseErrors with their fields', async () => {
    const err = await db.query('INSERT INTO t (id) VALUES (1)').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
    // The session is usable afterwards.
    expect((await db.query('SELECT count(*)::int AS c FROM t')).rows).toEqual([{ c: 1 }]);
  });

  it('gives a transaction the session: statements issued meanwhile wait, a throw rolls back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.query('INSERT INTO t (id, note) VALUES (2, $1)', ['in tx']);
      order.push('tx insert');
      await gate;
      order.push('tx end');
    });
    await new Promise((r) => setTimeout(r, 20));
    // Issued while the transaction is open: must not run inside it, and must see its commit.
    const outside = db.query<{ note: string }>('SELECT note FROM t WHERE id = 2').then((r) => {
      order.push('outside');
      return r.rows;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['tx insert']);
    release();
    await tx;
    expect(await outside).toEqual([{ note: 'in tx' }]);
    expect(order).toEqual(['tx insert', 'tx end', 'outside']);

    await expect(
      db.transaction(async (t) => {
        await t.query('INSERT INTO t (id) VALUES (3)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await db.query('SELECT id FROM t WHERE id = 3')).rows).toEqual([]);

    // An explicit rollback (what Prisma's adapter does) ends it without a COMMIT.
    await db.transaction(async (t) => {
      await t.query('INSERT INTO t (id) VALUES (4)');
      await t.rollback();
    });
    expect((await db.query('SELECT id FROM t WHERE id = 4')).rows).toEqual([]);
  });

  it('runs named prepared statements, re-preparing after a failure', async () => {
    const sql = sqlClientFromPglite(db);
    const q = 'SELECT id, note FROM t WHERE id = $1::int';
    expect((await sql.query(q, [1], { name: 'by_id' })).rows).toEqual([{ id: 1, note: 'one' }]);
    expect((await sql.query(q, [2], { name: 'by_id' })).rows).toEqual([{ id: 2, note: 'in tx' }]);
    await expect(sql.query(q, ['not a number'], { name: 'by_id' })).rejects.toMatchObject({ code: '22P02' });
    expect((await sql.query(q, [1], { name: 'by_id' })).rows).toEqual([{ id: 1, note: 'one' }]);
  });

  it('rejects statements after close', async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'sb-pglite-thread-'));
    cpSync(pgliteTemplateDir(), path.join(other, 'pglite'), { recursive: true });
    const d = await PGliteThread.open(path.join(other, 'pglite'));
    expect((await d.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await d.close();
    await expect(d.query('SELECT 1')).rejects.toThrow(/closed/);
    rmSync(other, { recursive: true, force: true });
  });
});
