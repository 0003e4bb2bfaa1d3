// The embedded database directory holds everything: password hashes, balances, the generated AUTH_SECRET and
// the CLI's token. Its files are owner-only (0600 files, 0700 directories) whatever umask the process was
// started with. PGlite creates its files through Emscripten's NODEFS with mode 0666/0777, so only the
// process umask can restrict what it writes while it runs; files left loose by an earlier run (or copied in)
// are tightened when the directory is opened.
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const GROUP_AND_OTHER = 0o077;

/** Adds group/other to the process umask, so every file created from now on is owner-only. */
export function restrictUmask(): void {
  if (!isMainThread) return; // process.umask cannot be set from a worker; the main thread sets it for all
  const previous = process.umask(GROUP_AND_OTHER);
  process.umask(previous | GROUP_AND_OTHER);
}

/** mkdir -p with mode 0700; an existing directory is set to 0700. */
export function ensureOwnerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Writes a file readable by its owner only, even if it existed before with a looser mode. */
export function writeOwnerOnlyFile(file: string, data: string): void {
  writeFileSync(file, data, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Removes group and other permissions from everything under `dir` (symbolic links are not followed). */
export function tightenTree(dir: string): void {
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop()!;
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) continue;
    if ((stat.mode & GROUP_AND_OTHER) !== 0) chmodSync(current, stat.mode & 0o7700);
    if (stat.isDirectory()) for (const name of readdirSync(current)) stack.push(path.join(current, name));
  }
}
