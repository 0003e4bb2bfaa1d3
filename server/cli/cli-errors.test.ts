// The CLI as an operator meets it when something is wrong: bad option values and a database it cannot open
// must say what to fix, and exit non-zero. The CLI runs as a real child process where the process matters.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from './commands';

const execFileAsync = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

describe('CLI errors', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sb-cli-errors-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('usage:unbilled --days out of range says the range, not that it is not a number', async () => {
    for (const days of ['0', '4000', '1.5']) {
      await expect(runCommand('usage:unbilled', { days })).rejects.toMatchObject({ message: expect.stringContaining('--days must be a whole number from 1 to 3650') });
    }
    await expect(runCommand('usage:unbilled', { days: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('--days must be a number') });
  });

  it('a DATABASE_URL it cannot reach is named (password masked) in the error, exit code 1', async () => {
    const run = execFileAsync(TSX, ['server/cli/main.ts', 'migrate'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgresql://gateway:s3cret-pw@127.0.0.1:1/switchboard',
        AUTH_SECRET: 'test-secret-for-the-cli-only-0123456789',
        NODE_ENV: 'test',
      },
    });
    const failure = await run.then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/^Error: Cannot open the database at DATABASE_URL \(postgresql:\/\/gateway:\*\*\*@127\.0\.0\.1:1\/switchboard\): .*ECONNREFUSED/);
    expect(failure?.stderr).not.toContain('s3cret-pw');
  }, 60_000);

  it('a DATA_DIR that cannot hold the embedded database (here a file) is named in the error', async () => {
    const file = path.join(dataDir, 'not-a-directory');
    writeFileSync(file, '');
    const failure = await execFileAsync(TSX, ['server/cli/main.ts', 'migrate'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: file, NODE_ENV: 'test' } }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`Error: Cannot open the embedded database in DATA_DIR (${file}): `);
  }, 60_000);

  it('a server.json whose server does not answer (killed, its pid reused) is named with what to do, not "fetch failed"', async () => {
    const stale = mkdtempSync(path.join(tmpdir(), 'sb-cli-stale-'));
    try {
      // This test process is alive, so the pid check passes; nothing listens on the port (taken, then freed).
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      writeFileSync(path.join(stale, 'server.json'), JSON.stringify({ pid: process.pid, port }));
      writeFileSync(path.join(stale, 'cli-token'), 'token');
      const failure = await execFileAsync(TSX, ['server/cli/main.ts', 'migrate'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: stale, NODE_ENV: 'test' } }).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(`The Switchboard server recorded in ${path.join(stale, 'server.json')} (pid ${process.pid}, port ${port}) does not answer (ECONNREFUSED)`);
      expect(failure?.stderr).toContain('delete that file');
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  }, 60_000);
});
