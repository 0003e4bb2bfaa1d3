#!/usr/bin/env node
// `npm run test:e2e [-- <playwright args>]`: end-to-end tests against the real production server.
//
//  1. Builds (`npm run build`) when there is no build or the sources changed since (scripts/needs-build.mjs).
//  2. Starts `node dist/server.js` on a free port with a fresh, empty DATA_DIR (embedded PGlite),
//     NODE_ENV=production and PUBLIC_URL set to its own address, so every run begins from first boot
//     (demo account included: SKIP_DEMO unset).
//  3. Waits for GET /api/health to answer 200 (90 s; prints the server log when it does not).
//  4. Runs `npx playwright test` with E2E_BASE_URL, then stops the server, deletes DATA_DIR and exits
//     with Playwright's code. The server log is kept at e2e/artifacts/server.log.
// Beside the server: a fake upstream for every provider (test/fake-upstream-server.ts) and a fake DNS server
// (test/fake-dns-server.ts) that checks SSO domain verification records (SSO_DNS_SERVERS); specs publish
// records through its control URL (E2E_FAKE_DNS_URL). Specs get the fake upstream's address as
// E2E_FAKE_UPSTREAM_URL (e.g. a provider whose base URL makes it fail, see the fake's /status/<code>/).
//
// Overrides (environment):
//   E2E_SERVER_CMD  a shell command to start instead of `node dist/server.js`; it gets PORT, DATA_DIR and
//                   the rest in its environment, e.g. E2E_SERVER_CMD='npx next start -p $PORT'.
//                   Then only .next/BUILD_ID must exist for the build step to be skipped.
//   E2E_BUILD_CMD   the build command to run instead of `npm run build`, e.g. 'npx next build'.
//   E2E_BASE_URL    test an already running server: nothing is built or started.
//   E2E_KEEP_DATA=1 keep DATA_DIR after the run (its path is printed) to inspect the database.
import { spawn, spawnSync } from 'node:child_process';
import { SERVER_ENV, serverNodeArgs } from './server-node-args.mjs';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildReason } from './needs-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const artifacts = path.join(root, 'e2e', 'artifacts');
const serverLogPath = path.join(artifacts, 'server.log');
const HEALTH_TIMEOUT_MS = 90_000;
const playwrightArgs = process.argv.slice(2);

const log = (message) => console.log(`[e2e] ${message}`);
// Set once started; read by runPlaywright and cleanUp (which may run before they are).
let e2eDataDir = '';
let upstream;
let fakeDns;

if (process.env.E2E_BASE_URL) {
  log(`testing the server already running at ${process.env.E2E_BASE_URL}`);
  process.exit(await runPlaywright(process.env.E2E_BASE_URL));
}

const serverCmd = process.env.E2E_SERVER_CMD?.trim() || undefined;
buildIfNeeded();

const port = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-'));
const baseURL = `http://127.0.0.1:${port}`;
mkdirSync(artifacts, { recursive: true });

// Every provider points at a local fake that replays the recorded wire formats (test/fake-upstream-server.ts).
upstream = await startFakeUpstream();
fakeDns = await startFakeDns();
e2eDataDir = dataDir;
// PUBLIC_URL: links the server hands out (invites, checkout, device flow) must point at this server.
const env = {
  ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: baseURL, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1',
  OPENAI_BASE_URL: `${upstream.url}/v1`, OPENAI_API_KEY: 'sk-e2e-openai', ANTHROPIC_BASE_URL: upstream.url, ANTHROPIC_API_KEY: 'sk-e2e-anthropic',
  GEMINI_BASE_URL: upstream.url, GEMINI_API_KEY: 'e2e-gemini', DEEPSEEK_BASE_URL: upstream.url, DEEPSEEK_API_KEY: 'sk-e2e-deepseek',
  // e2e/api/fuzz.spec.ts waits for a stalled upload's 408: a short bound keeps it quick.
  REQUEST_TIMEOUT_MS: '5000',
  // e2e/console/sso.spec.ts: its organization's issuer runs in the Playwright worker on http://127.0.0.1.
  SSO_DNS_SERVERS: fakeDns.dns, SSO_ALLOW_HTTP_ISSUERS: '1',
  // e2e/console/organization-admin.spec.ts: its webhook receiver runs in the Playwright worker on 127.0.0.1.
  WEBHOOK_ALLOW_PRIVATE: '1',
  // Every spec signs up its own users from 127.0.0.1: more than the default 20 per address and hour.
  SIGN_UPS_PER_HOUR: '1000',
};
delete env.SKIP_DEMO;
delete env.E2E_BASE_URL;

log(`starting ${serverCmd ?? 'node dist/server.js'} on ${baseURL} (DATA_DIR=${dataDir})`);
const serverLog = createWriteStream(serverLogPath);
// The log's tail also stays in memory, to print on failure without waiting for the file to flush.
const logTail = [];
let logTailBytes = 0;
const keepTail = (chunk) => {
  logTail.push(chunk);
  logTailBytes += chunk.length;
  while (logTailBytes > 256 * 1024 && logTail.length > 1) logTailBytes -= logTail.shift().length;
};
// Its own process group (detached), so stopping it also stops whatever a shell command spawned.
const server = serverCmd
  ? spawn(serverCmd, { cwd: root, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  : spawn(process.execPath, [...serverNodeArgs(env), 'dist/server.js'], { cwd: root, env: { ...SERVER_ENV, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
for (const stream of [server.stdout, server.stderr]) {
  stream.pipe(serverLog, { end: false });
  stream.on('data', keepTail);
}
let serverExit;
let cleanedUp = false;
server.on('exit', (code, signal) => (serverExit = { code, signal }));

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await cleanUp();
    process.exit(130);
  });
}

let exitCode = 1;
try {
  await waitForHealth();
  exitCode = await runPlaywright(baseURL);
} catch (error) {
  console.error(`[e2e] ${error.message}`);
  await stopServer();
  printServerLog();
} finally {
  await cleanUp();
}
process.exit(exitCode);

function buildIfNeeded() {
  const reason = serverCmd ? (existsSync(path.join(root, '.next/BUILD_ID')) ? null : 'no build found') : buildReason(root);
  if (!reason) return;
  const buildCmd = process.env.E2E_BUILD_CMD?.trim() || 'npm run build';
  log(`${reason}: running ${buildCmd}`);
  const result = spawnSync(buildCmd, { cwd: root, stdio: 'inherit', shell: true, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) {
    console.error(`[e2e] build failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: found } = probe.address();
      probe.close(() => resolve(found));
    });
  });
}

async function waitForHealth() {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (serverExit) {
      throw new Error(`the server exited before it was healthy (code ${serverExit.code}, signal ${serverExit.signal})`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200) {
        log(`healthy after ${((HEALTH_TIMEOUT_MS - (deadline - Date.now())) / 1000).toFixed(1)} s`);
        return;
      }
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`GET ${baseURL}/api/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last})`);
}

/**
 * Runs Playwright as a child and waits for it WITHOUT blocking this process: the server's stdout and stderr are
 * piped through here into server.log, and a blocked event loop (spawnSync) would stop draining them — the
 * server, which logs one line per request synchronously, then stalls on a full pipe after a few hundred requests.
 */
function runPlaywright(url) {
  log(`npx playwright test ${playwrightArgs.join(' ')}`.trim());
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', ...playwrightArgs], {
      cwd: root,
      stdio: 'inherit',
      // E2E_DATA_DIR lets fixtures run the CLI against this server's embedded database (through the server).
      env: { ...process.env, E2E_BASE_URL: url, E2E_DATA_DIR: e2eDataDir, ...(fakeDns ? { E2E_FAKE_DNS_URL: fakeDns.control } : {}), ...(upstream ? { E2E_FAKE_UPSTREAM_URL: upstream.url } : {}), NEXT_TELEMETRY_DISABLED: '1' },
    });
    child.once('error', (error) => {
      console.error(`[e2e] could not run Playwright: ${error.message}`);
      resolve(1);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function stopServer() {
  if (serverExit || server.pid === undefined) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const signalGroup = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function cleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  await stopServer();
  upstream?.child.kill('SIGTERM');
  fakeDns?.child.kill('SIGTERM');
  serverLog.end();
  if (process.env.E2E_KEEP_DATA === '1') {
    log(`kept DATA_DIR ${dataDir}`);
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startFakeUpstream() {
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'test/fake-upstream-server.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) resolve(JSON.parse(line).port);
    });
    child.on('exit', (code) => reject(new Error(`fake upstream exited (${code})`)));
  });
  log(`fake upstream on 127.0.0.1:${port}`);
  return { child, url: `http://127.0.0.1:${port}` };
}

async function startFakeDns() {
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'test/fake-dns-server.ts'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const addresses = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]));
    });
    child.on('exit', (code) => reject(new Error(`fake DNS server exited (${code})`)));
  });
  log(`fake DNS on ${addresses.dns} (records published through ${addresses.control})`);
  return { child, ...addresses };
}

function printServerLog() {
  const text = Buffer.concat(logTail).toString('utf8');
  console.error(`[e2e] ---- server log (${serverLogPath}) ----\n${text.trimEnd() || '(empty)'}\n[e2e] ---- end of server log ----`);
}
