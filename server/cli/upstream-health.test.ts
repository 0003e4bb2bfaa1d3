// `npm run cli -- upstream:health` shows the running server's key health: the CLI (a real child process) finds
// the server through DATA_DIR even on PostgreSQL and the command runs in the server, reading its runtime. The
// server here is this test process: the loopback endpoint over the runtime the test builds.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleCliRequest } from '@/server/http/internal-cli';
import { KeyHealth } from '@/server/routing/key-health';
import type { RoutingProvider, RoutingTable } from '@/server/routing/routing-table';
import { removeServerInfo, writeServerInfo } from './server-link';

const health = new KeyHealth({ failureThreshold: 1 });
const provider = {
  id: 'openai-a',
  type: 'openai',
  keys: [
    { id: 'main', ref: 'openai-a/main', apiKey: 'sk-never-shown', weight: 3 },
    { id: 'spare', ref: 'openai-a/spare', apiKey: 'sk-never-shown', weight: 1 },
  ],
  configured: true,
  enabled: true,
} as unknown as RoutingProvider;
const table = { models: new Map(), list: [], providers: new Map([['openai-a', provider]]), warnings: [] } as RoutingTable;

// The server's runtime as the command sees it (the runtime's own wiring is tested with the runtime).
vi.mock('@/server/runtime/process-runtime', () => ({ processRuntime: () => ({ routing: { table: () => table }, health }) }));

const execFileAsync = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

describe('upstream:health through the running server', () => {
  let dataDir: string;
  let server: http.Server;
  let token = '';
  let port = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'sb-upstream-health-'));
    server = http.createServer((req, res) => void handleCliRequest(req, res, token, true));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    token = writeServerInfo(dataDir, { pid: process.pid, port });
  });
  afterAll(async () => {
    removeServerInfo(dataDir);
    await new Promise((resolve) => server.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The CLI on PostgreSQL (a database it never reaches: the command must not need it), no Redis. */
  const cli = (...args: string[]) =>
    execFileAsync(TSX, ['server/cli/main.ts', 'upstream:health', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', AUTH_SECRET: 'test-secret-for-the-cli-only-0123456789', NODE_ENV: 'test' },
    });

  it("prints the server's state per key, as a table and as JSON", async () => {
    health.rateLimited('openai-a/main', 40);
    health.failed('openai-a/spare', '503: overloaded');

    const { stdout } = await cli('--json');
    const report = JSON.parse(stdout);
    expect(report.source).toBe('server');
    expect(report.providers).toEqual([
      {
        id: 'openai-a',
        type: 'openai',
        enabled: true,
        configured: true,
        missing: null,
        keys: [
          expect.objectContaining({ id: 'main', state: 'cooling', consecutive_failures: 0, last_error: '429 (Retry-After 40 s)' }),
          expect.objectContaining({ id: 'spare', state: 'open', consecutive_failures: 1, last_error: '503: overloaded' }),
        ],
      },
    ]);
    expect(report.providers[0].keys[0].seconds_left).toBeGreaterThan(30);
    expect(stdout).not.toContain('sk-never-shown');

    const text = (await cli()).stdout;
    expect(text).toMatch(/^Provider keys in the running server/);
    expect(text).toMatch(/ {2}main +cooling \d+ s +0 +429 \(Retry-After 40 s\)/);
    expect(text).toMatch(/ {2}spare +open \d+ s +1 +503: overloaded/);
  }, 60_000);

  it('on PostgreSQL the endpoint runs only commands that read the server memory', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/internal/cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switchboard-cli-token': token },
      body: JSON.stringify({ command: 'credits:grant', args: { email: 'a@b.c', amount: '100' } }),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/runs in the CLI on PostgreSQL/);
  });

  it('says so when no server is running and REDIS_URL is not set', async () => {
    const other = mkdtempSync(path.join(tmpdir(), 'sb-no-server-'));
    try {
      const run = execFileAsync(TSX, ['server/cli/main.ts', 'upstream:health'], { env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: other, NODE_ENV: 'test' } });
      await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/No Switchboard server is running here .*REDIS_URL is not set/) });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);
});
