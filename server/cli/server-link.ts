// How the CLI reaches an embedded database that the running server holds open (PGlite allows one process),
// and, whatever the database, the server's memory (upstream:health): the server writes DATA_DIR/server.json
// (pid, port) and DATA_DIR/cli-token (random, mode 0600) at start; the CLI posts its command to the server's
// loopback-only endpoint with that token, and the server runs the same command code. Whoever can read the data directory could open the database anyway, so the
// token grants nothing new.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { secretsEqual } from '@/server/auth/secret-token';
import { writeOwnerOnlyFile } from '@/server/db/owner-only-files';
import { createHash } from 'node:crypto';

export const CLI_ENDPOINT = '/internal/cli';

export interface ServerInfo {
  pid: number;
  port: number;
  /** The OS thread id of the embedded database's thread (the bench pins it to its own CPU). */
  dbThreadId?: number;
}

export function writeServerInfo(dataDir: string, info: ServerInfo): string {
  // On PostgreSQL nothing else may have created DATA_DIR.
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('hex');
  writeOwnerOnlyFile(path.join(dataDir, 'cli-token'), token);
  writeOwnerOnlyFile(path.join(dataDir, 'server.json'), JSON.stringify(info));
  return token;
}

/** Removes the files if they are this process's: on PostgreSQL several servers may share a DATA_DIR, the last started wrote them. */
export function removeServerInfo(dataDir: string, pid = process.pid): void {
  try {
    if ((JSON.parse(readFileSync(path.join(dataDir, 'server.json'), 'utf8')) as ServerInfo).pid !== pid) return;
  } catch {
    // missing or unreadable: remove whatever is left
  }
  for (const f of ['server.json', 'cli-token']) rmSync(path.join(dataDir, f), { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLiveServerInfo(dataDir: string): (ServerInfo & { token: string }) | null {
  const file = path.join(dataDir, 'server.json');
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
    if (!alive(info.pid) || info.pid === process.pid) return null;
    return { ...info, token: readFileSync(path.join(dataDir, 'cli-token'), 'utf8').trim() };
  } catch {
    return null;
  }
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

export function cliTokenMatches(expected: string, given: string | undefined): boolean {
  return !!given && secretsEqual(sha(expected), sha(given));
}
