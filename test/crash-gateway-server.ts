// A gateway in its own process, for the crash test (server/ledger/crash.integration.test.ts): opens the
// database it is given (CRASH_DATABASE_URL, or the PGlite directory CRASH_DATA_DIR), serves the chat fast
// path (handleChatNode) on 127.0.0.1, prints {"port": N} on stdout, and waits to be killed. Providers
// point wherever the parent set OPENAI_BASE_URL etc. No sweeper runs here: the parent plays the restarted
// server. Run with: node --import tsx test/crash-gateway-server.ts
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, setDatabase } from '@/server/db';
import { handleChatNode } from '@/server/gateway/node-handler';
import { createRuntime } from '@/server/runtime/runtime';

async function main() {
  const databaseUrl = process.env.CRASH_DATABASE_URL;
  const dataDir = process.env.CRASH_DATA_DIR;
  if (!databaseUrl && !dataDir) throw new Error('Set CRASH_DATABASE_URL or CRASH_DATA_DIR');
  setDatabase(await openDatabase({ databaseUrl, dataDir, migrate: false }));
  const runtime = createRuntime();
  const server = http.createServer((req, res) => void handleChatNode(runtime, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, pid: process.pid }) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
