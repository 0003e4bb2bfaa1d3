// A gateway in its own process, for the crash tests (server/ledger/crash*.integration.test.ts): opens the
// database it is given (CRASH_DATABASE_URL, or the PGlite directory CRASH_DATA_DIR), builds the runtime and
// starts what the production server starts for money (server/main.ts: settlement journal replay and the
// sweeper; the runtime renews its reservations' leases), serves the chat fast path (handleChatNode) on
// 127.0.0.1, prints {"port": N} on stdout, and waits to be killed (SIGTERM: the production server's graceful
// stop, server/http/graceful-shutdown.ts). GET /_crash/active-reservations tells the test how many reservations are still held.
// Providers point wherever the parent set OPENAI_BASE_URL etc.; SETTLEMENT_JOURNAL_DIR, RESERVATION_LEASE_MS
// and SWEEP_INTERVAL_MS are read as in production. Run with: node --import tsx test/crash-gateway-server.ts
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeDatabase, db, openDatabase, setDatabase } from '@/server/db';
import { env } from '@/server/env';
import { handleChatNode } from '@/server/gateway/node-handler';
import { shutDownGracefully } from '@/server/http/graceful-shutdown';
import { startSettlementRecovery } from '@/server/ledger/start-settlement-recovery';
import { createRuntime } from '@/server/runtime/runtime';

async function main() {
  const databaseUrl = process.env.CRASH_DATABASE_URL;
  const dataDir = process.env.CRASH_DATA_DIR;
  if (!databaseUrl && !dataDir) throw new Error('Set CRASH_DATABASE_URL or CRASH_DATA_DIR');
  setDatabase(await openDatabase({ databaseUrl, dataDir, migrate: false, asyncCommitPoolSize: 4 }));
  const e = env();
  const runtime = createRuntime({ settlementJournalDir: e.settlementJournalDir, reservationLeaseMs: e.RESERVATION_LEASE_MS, rateLimitRpm: e.RATE_LIMIT_RPM });
  const recovery = startSettlementRecovery({ enqueue: (s) => runtime.settlements.enqueue(s), journal: runtime.journal, sweepIntervalMs: e.SWEEP_INTERVAL_MS });
  const server = http.createServer((req, res) => {
    if (req.url === '/_crash/active-reservations') return void activeReservations(res);
    void handleChatNode(runtime, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid }) + '\n');
  // SIGTERM: what server/main.ts does (server/http/graceful-shutdown.ts), with SHUTDOWN_GRACE_S from the environment.
  process.once('SIGTERM', () => {
    recovery.stop();
    void shutDownGracefully({ server, graceMs: e.SHUTDOWN_GRACE_S * 1000, inFlight: () => runtime.leases.size, flush: () => runtime.close(), close: () => closeDatabase() }).then(() => process.exit(0));
  });
}

/** Holds still on the ledger: ACTIVE reservations and unreleased credit leases (a dead process's lease is a hold too). */
async function activeReservations(res: http.ServerResponse) {
  const prisma = await db();
  const [reservations, leases] = await Promise.all([prisma.reservation.count({ where: { status: 'ACTIVE' } }), prisma.creditLease.count({ where: { releasedAt: null } })]);
  const active = reservations + leases;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ active }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
