// Test support for the crash tests (server/ledger/crash*.integration.test.ts): a database the test and a
// gateway process can take turns on (PGlite admits one process per directory: the test hands it over and
// takes it back), and the gateway process itself (test/crash-gateway-server.ts), started and stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDatabase, openDatabase, setDatabase } from '@/server/db';
import { createPostgresDatabase, pgliteTemplateDir, type DbKind } from './db';
import type { FakeUpstream } from './fake-upstream';

const ROOT = path.resolve(__dirname, '..');

export interface CrashDatabase {
  /** For the gateway process: CRASH_DATABASE_URL or CRASH_DATA_DIR, and a SETTLEMENT_JOURNAL_DIR of its own. */
  env: Record<string, string>;
  /** Before a gateway process starts (PGlite: the test lets go of the directory). */
  handOver(): Promise<void>;
  /** After the gateway processes are gone (PGlite: reopened, the dead process's WAL replayed). */
  takeBack(): Promise<void>;
  dispose(): Promise<void>;
}

/** Opens a fresh database of `kind` in this process (seeded catalog) and says how a gateway reaches it. */
export async function openCrashDatabase(kind: DbKind): Promise<CrashDatabase> {
  const journalDir = mkdtempSync(path.join(os.tmpdir(), 'sb-crash-journal-'));
  const removeJournal = () => rmSync(journalDir, { recursive: true, force: true });
  if (kind === 'postgres') {
    const created = await createPostgresDatabase();
    setDatabase(await openDatabase({ databaseUrl: created.url, poolSize: 4 }));
    return {
      env: { CRASH_DATABASE_URL: created.url, SETTLEMENT_JOURNAL_DIR: journalDir },
      handOver: async () => {},
      takeBack: async () => {},
      dispose: async () => {
        await closeDatabase();
        await created.drop();
        removeJournal();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-crash-pglite-'));
  cpSync(pgliteTemplateDir(), path.join(dir, 'pglite'), { recursive: true });
  setDatabase(await openDatabase({ dataDir: dir }));
  let open = true;
  return {
    env: { CRASH_DATA_DIR: dir, SETTLEMENT_JOURNAL_DIR: journalDir },
    handOver: async () => {
      if (open) await closeDatabase();
      open = false;
    },
    takeBack: async () => {
      if (!open) setDatabase(await openDatabase({ dataDir: dir, migrate: false }));
      open = true;
    },
    dispose: async () => {
      if (open) await closeDatabase();
      rmSync(dir, { recursive: true, force: true });
      removeJournal();
    },
  };
}

export interface GatewayProcess {
  child: ChildProcess;
  port: number;
  origin: string;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
}

export function startGatewayProcess(env: Record<string, string>, upstream: FakeUpstream): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test', 'crash-gateway-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, OPENAI_BASE_URL: `${upstream.url}/v1`, OPENAI_API_KEY: 'sk-upstream', RATE_LIMIT_RPM: '100000', LOG_LEVEL: 'silent', DATABASE_URL: '', SHUTDOWN_GRACE_S: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        const port = JSON.parse(line).port as number;
        resolve({ child, port, origin: `http://127.0.0.1:${port}`, stderr: () => stderr });
      }
    });
    child.once('exit', (code) => reject(new Error(`gateway process exited (${code}) before it was ready: ${stderr}`)));
  });
}

export async function killGatewayProcess(g: GatewayProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (g.child.exitCode !== null || g.child.signalCode !== null) return;
  const exited = new Promise((r) => g.child.once('exit', r));
  g.child.kill(signal);
  await exited;
}
