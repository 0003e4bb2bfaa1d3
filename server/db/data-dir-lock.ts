// PGlite lets exactly one process open a data directory; a second opener would corrupt it. This lock file
// (created with O_EXCL, holding the owner's pid) makes a second opener fail with a clear message instead.
// A lock left by a process that no longer exists is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '@/server/errors';

export interface DataDirLock {
  file: string;
  release(): void;
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8').trim());
    return pidAlive(pid) && pid !== process.pid ? pid : null;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return { file, release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = lockHolder(dataDir);
      if (holder !== null) {
        throw new AppError(
          'service_unavailable',
          `The embedded database in ${dataDir} is open in another process (pid ${holder}). Stop it, or run the command while the server is running so it goes through the server.`,
        );
      }
      rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new AppError('service_unavailable', `Could not lock the embedded database in ${dataDir}`);
}
