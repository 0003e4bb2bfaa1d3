// Where a provider entry from the admin API may read a `credentials_file`. The routing file and
// CUSTOM_PROVIDERS are written by whoever runs the server, and may name any path; an admin API caller is an
// operator account, which must not make the server read (and report on) its other files — /etc/shadow, a
// FIFO that blocks the reload, another service's key. So from the admin API a credentials file must be a
// regular file inside SWITCHBOARD_CREDENTIALS_DIR once symlinks and `..` are resolved (realpath), checked
// when the entry is written and again each time the routing table is built (the file may have been swapped
// for a symlink since).
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '@/server/errors';

export type CredentialsFileVerdict = { ok: true; realPath: string } | { ok: false; problem: string };

export function checkAdminCredentialsFile(file: string, dir: string | undefined): CredentialsFileVerdict {
  if (dir === undefined) {
    return {
      ok: false,
      problem: 'credentials_file: cannot be set through the admin API on this server (SWITCHBOARD_CREDENTIALS_DIR is not set): use credentials_env, naming a variable that holds the key JSON',
    };
  }
  let realDir: string;
  try {
    realDir = realpathSync(dir);
  } catch {
    return { ok: false, problem: `credentials_file: SWITCHBOARD_CREDENTIALS_DIR (${dir}) does not exist on this server` };
  }
  // A relative name is taken inside the directory, as an operator listing the directory would expect.
  const wanted = path.resolve(realDir, file);
  let realPath: string;
  try {
    realPath = realpathSync(wanted);
  } catch {
    return { ok: false, problem: `credentials_file: ${file} does not exist in SWITCHBOARD_CREDENTIALS_DIR (${dir})` };
  }
  if (!realPath.startsWith(realDir + path.sep)) {
    return { ok: false, problem: `credentials_file: ${file} is outside SWITCHBOARD_CREDENTIALS_DIR (${dir}) once links are resolved; the admin API reads keys only from there` };
  }
  if (!statSync(realPath).isFile()) return { ok: false, problem: `credentials_file: ${file} is not a regular file` };
  return { ok: true, realPath };
}

/** The admin API's check: a 400 naming the field, or the entry with its credentials_file resolved to the real path. */
export function resolveAdminCredentialsFileOrThrow<T extends { credentials_file?: string }>(entry: T, dir: string | undefined): T {
  if (entry.credentials_file === undefined) return entry;
  const verdict = checkAdminCredentialsFile(entry.credentials_file, dir);
  if (!verdict.ok) throw new AppError('bad_request', verdict.problem, { field: 'credentials_file' });
  return { ...entry, credentials_file: verdict.realPath };
}
