// Behind a transaction-pooling pooler, as managed Postgres poolers run: Debian's PgBouncer (pool_mode =
// transaction, fewer server connections than clients, shared by all) in front of this test's own PostgreSQL
// database. The test process migrates through it (?pgbouncer=true: the migration lock is a transaction lock,
// pooler.ts) and two gateway instances (test/crash-gateway-server.ts) serve chat through it while the test
// posts ledger entries through it at the same time; every balance and ledger total comes out exact. A user
// suspended through one connection is refused on the next request by the other instance. And the control:
// a named prepared statement really does break through this pooler, so the run proves something.
// PostgreSQL only. With TEST_DATABASE_URL set and /usr/sbin/pgbouncer missing the test fails (.ci/run installs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreUser, suspendUser } from '@/server/admin/admin-users';
import { closeDatabase, db, openDatabase, setDatabase } from '@/server/db';
import { rawEnv } from '@/server/env';
import { grantCredits } from '@/server/ledger/balance';
import { killGatewayProcess, startGatewayProcess, type GatewayProcess } from '@/test/crash-gateway';
import { createPostgresDatabase } from '@/test/db';
import { createTestUser } from '@/test/factories';
import { fixtureChunks, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';

const PGBOUNCER = '/usr/sbin/pgbouncer';
const NAME = 'two instances behind PgBouncer (pool_mode=transaction)';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${log()}`);
    const up = await new Promise<boolean>((r) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), r(true)));
      s.once('error', () => r(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`pgbouncer did not listen on ${port}: ${log()}`);
}

async function chat(g: GatewayProcess, key: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${g.origin}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true, max_tokens: 100 }),
  });
  return { status: res.status, body: await res.text() };
}

if (!rawEnv('TEST_DATABASE_URL')) {
  describe.skip(`${NAME} [postgres] (skipped: TEST_DATABASE_URL is not set)`, () => {
    it('runs on PostgreSQL only', () => {});
  });
} else {
  describe(`${NAME} [postgres]`, () => {
    let bouncer: ChildProcess | undefined;
    let dir: string;
    let upstream: FakeUpstream;
    let bouncerUrl: string;
    let drop: () => Promise<void>;
    const gateways: GatewayProcess[] = [];

    beforeAll(async () => {
      expect(existsSync(PGBOUNCER), `${PGBOUNCER} is missing: apt-get install pgbouncer (.ci/run installs it)`).toBe(true);
      const created = await createPostgresDatabase({ empty: true });
      drop = created.drop;
      const direct = new URL(created.url);
      const dbName = direct.pathname.slice(1);
      dir = mkdtempSync(path.join(os.tmpdir(), 'sb-pgbouncer-'));
      chmodSync(dir, 0o777); // pgbouncer refuses to run as root: it runs as postgres (-u) and writes its log here
      const port = await freePort();
      writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(direct.username) || 'postgres'}" ""\n`);
      writeFileSync(
        path.join(dir, 'pgbouncer.ini'),
        [
          '[databases]',
          `${dbName} = host=${direct.hostname} port=${direct.port || 5432} dbname=${dbName}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${port}`,
          'unix_socket_dir =',
          'auth_type = trust',
          `auth_file = ${path.join(dir, 'userlist.txt')}`,
          'pool_mode = transaction',
          'server_round_robin = 1', // a client's next transaction goes to another server connection, not the one it just used
          'default_pool_size = 8', // shared by the test and both instances (30 client connections)
          'max_client_conn = 200',
          'ignore_startup_parameters = extra_float_digits,options',
          `logfile = ${path.join(dir, 'pgbouncer.log')}`,
          `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
        ].join('\n') + '\n',
      );
      const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
      bouncer = spawn(PGBOUNCER, [...asUser, path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      bouncer.stdout!.on('data', (d) => (out += d));
      bouncer.stderr!.on('data', (d) => (out += d));
      const log = () => out + (existsSync(path.join(dir, 'pgbouncer.log')) ? readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8') : '');
      await waitForPort(port, bouncer, log);
      const via = new URL(created.url);
      via.port = String(port);
      via.searchParams.set('pgbouncer', 'true');
      bouncerUrl = via.toString();

      // Migrated through the pooler: the migration lock must not be a session lock here.
      setDatabase(await openDatabase({ databaseUrl: bouncerUrl, poolSize: 10 }));
      upstream = await startFakeUpstream(() => ({ status: 200, sse: fixtureChunks('openai', 'text'), delayMs: 5 }));
      for (const n of [1, 2]) {
        const journal = path.join(dir, `journal-${n}`);
        mkdirSync(journal);
        gateways.push(await startGatewayProcess({ CRASH_DATABASE_URL: bouncerUrl, SETTLEMENT_JOURNAL_DIR: journal, SHUTDOWN_GRACE_S: '5' }, upstream));
      }
    }, 120_000);

    afterAll(async () => {
      for (const g of gateways) await killGatewayProcess(g, 'SIGKILL');
      await closeDatabase();
      await upstream?.close();
      bouncer?.kill('SIGTERM');
      if (bouncer && bouncer.exitCode === null) await new Promise((r) => bouncer!.once('exit', r));
      await drop?.();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the pooler really pools by transaction: a named prepared statement breaks through it (why ?pgbouncer=true turns them off)', async () => {
      const url = bouncerUrl.replace(/[?&]pgbouncer=true/, '');
      const [a, b] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
      await Promise.all([a.connect(), b.connect()]);
      try {
        await a.query({ name: 'sb_probe', text: 'SELECT $1::int AS n', values: [1] }); // prepared on one server connection
        const errors: string[] = [];
        for (let i = 0; i < 10 && errors.length === 0; i++) {
          await b.query('BEGIN'); // holds a server connection, maybe that one
          await a.query({ name: 'sb_probe', text: 'SELECT $1::int AS n', values: [2] }).catch((err: Error) => errors.push(err.message));
          await b.query('COMMIT');
        }
        expect(errors[0]).toMatch(/prepared statement "sb_probe" does not exist/);
      } finally {
        await Promise.all([a.end(), b.end()]);
      }
    });

    it('chat on both instances and ledger entries at once: every balance and ledger total exact', { timeout: 240_000 }, async () => {
      const users = await Promise.all([1, 2, 3].map(() => createTestUser(1)));
      const perUser = 12;
      const grants = 6;
      const chats = users.flatMap((u, i) => Array.from({ length: perUser }, (_, j) => chat(gateways[(i + j) % 2], u.key)));
      // One chain of grants per account, the three chains and all the chat at once.
      const credits = users.map(async (u) => {
        for (let j = 0; j < grants; j++) await grantCredits({ accountId: u.user.personal_account_id, amountMicros: 1_000n + BigInt(j), idempotencyKey: `pgbouncer-${randomUUID()}` });
      });
      const [answers] = await Promise.all([Promise.all(chats), Promise.all(credits)]);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body).toContain('data: [DONE]');
      }
      // A clean stop writes whatever each instance still had queued (graceful-shutdown.ts).
      for (const g of gateways.splice(0)) await killGatewayProcess(g, 'SIGTERM');

      const prisma = await db();
      const granted = BigInt(grants) * 1_000n + BigInt((grants * (grants - 1)) / 2);
      for (const u of users) {
        const accountId = u.user.personal_account_id;
        const usage = await prisma.usageRecord.findMany({ where: { accountId }, select: { id: true, costMicros: true, status: true } });
        expect(usage).toHaveLength(perUser);
        expect(usage.every((r) => r.status === 'SUCCESS' && r.costMicros > 0n)).toBe(true);
        const spent = usage.reduce((s, r) => s + r.costMicros, 0n);
        const usageEntries = await prisma.ledgerEntry.aggregate({ where: { accountId, generationId: { not: null } }, _sum: { amountMicros: true }, _count: true });
        expect(usageEntries).toMatchObject({ _count: perUser, _sum: { amountMicros: -spent } });
        const all = await prisma.ledgerEntry.aggregate({ where: { accountId }, _sum: { amountMicros: true } });
        const account = await prisma.account.findUniqueOrThrow({ where: { id: accountId } });
        expect(all._sum.amountMicros).toBe(1_000_000n + granted - spent);
        expect(account.paidMicros + account.promoMicros).toBe(1_000_000n + granted - spent);
        expect(account.reservedMicros).toBe(0n);
        expect(await prisma.reservation.count({ where: { accountId, status: { not: 'SETTLED' } } })).toBe(0);
      }
    });

    it('a user suspended through one connection is refused on the next request by the other instance, and served again once restored', { timeout: 120_000 }, async () => {
      for (const [n] of [[1], [2]]) {
        const journal = path.join(dir, `journal-s${n}`);
        mkdirSync(journal);
        gateways.push(await startGatewayProcess({ CRASH_DATABASE_URL: bouncerUrl, SETTLEMENT_JOURNAL_DIR: journal, SHUTDOWN_GRACE_S: '5' }, upstream));
      }
      const [a, b] = gateways;
      const operator = await createTestUser();
      const u = await createTestUser(1);
      expect((await chat(a, u.key)).status).toBe(200);
      expect((await chat(b, u.key)).status).toBe(200);
      await suspendUser({ operatorUserId: operator.user.id, userId: u.user.id, body: { reason: 'test' } });
      const refused = await chat(b, u.key);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.metadata).toMatchObject({ reason: 'user_suspended' });
      expect((await chat(a, u.key)).status).toBe(403);
      await restoreUser({ operatorUserId: operator.user.id, userId: u.user.id });
      expect((await chat(b, u.key)).status).toBe(200);
    });
  });
}
