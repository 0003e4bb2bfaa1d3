// Test support: the production server itself — server/main.ts run from source (tsx) in front of the Next build
// in .next/ — in a child process on a free port, for tests of what main.ts answers over HTTP before, around
// and instead of Next (request targets, 405s and their Allow, error shapes, the access log). test/api-server.ts
// serves the route handlers without Next; only the real thing shows what Next does with a request.
// Needs a Next build (`npm run build`, or the one `npm run test:e2e` makes); suites say they are skipped
// without one. The database is the caller's (a PGlite directory or a PostgreSQL URL, e.g. from
// test/crash-gateway.ts openCrashDatabase, handed over before the start).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const START_TIMEOUT_MS = 120_000;

export function hasNextBuild(): boolean {
  return existsSync(path.join(ROOT, '.next', 'BUILD_ID'));
}

export interface ProductionServer {
  child: ChildProcess;
  port: number;
  origin: string;
  /** Everything the server wrote on stdout so far (its JSON log lines among them). */
  stdout(): string;
  /** The access log's lines (server/observability/request-log.ts) written so far, in order. */
  accessLog(): Record<string, unknown>[];
  /** The access log's line for this request id, once written. */
  accessLogLine(requestId: string): Record<string, unknown> | undefined;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** @param env the database (DATA_DIR, or DATABASE_URL and AUTH_SECRET) and any other setting. */
export async function startProductionServer(env: Record<string, string>): Promise<ProductionServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: '',
      SKIP_DEMO: '1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SHUTDOWN_GRACE_S: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const server: ProductionServer = {
    child,
    port,
    origin: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    accessLog() {
      const lines = stdout.split('\n').filter((line) => line.startsWith('{') && line.includes('"msg":"request"'));
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request');
    },
    accessLogLine(requestId) {
      return server.accessLog().find((entry) => entry.request_id === requestId);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server was not ready in ${START_TIMEOUT_MS / 1000} s: ${stdout}\n${stderr}`)), START_TIMEOUT_MS);
    const onData = () => {
      if (!stdout.includes(`ready on http://localhost:${port}`)) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready: ${stdout}\n${stderr}`));
    });
  });
  return server;
}

export interface RawReply {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written on a socket exactly as given (request line, headers, a body as short as we like), and the
 * first response read back (Content-Length or chunked). Resolves at the end of that response, or when the server
 * closes the connection.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 15_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer in ${timeoutMs} ms: ${data.toString('latin1').slice(0, 300)}`));
    }, timeoutMs);
    const finish = (reply: RawReply) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const tryParse = (closed: boolean) => {
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return closed ? reject(new Error(`closed without a response: ${data.toString('latin1')}`)) : undefined;
      const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const rest = data.subarray(end + 4);
      if (headers['content-length'] !== undefined) {
        const length = Number(headers['content-length']);
        if (rest.length >= length) return finish({ status, headers, body: rest.subarray(0, length).toString('utf8') });
      } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        const body = dechunk(rest);
        if (body !== null) return finish({ status, headers, body });
      } else if (status === 204 || status === 304) return finish({ status, headers, body: '' });
      if (closed) finish({ status, headers, body: rest.toString('utf8') });
    };
    socket.on('data', (d: Buffer) => {
      data = Buffer.concat([data, d]);
      tryParse(false);
    });
    socket.on('close', () => tryParse(true));
    socket.on('error', () => {}); // a reset after the answer: 'close' follows
    socket.write(request);
  });
}

/** A complete chunked body, or null while its last chunk has not arrived. */
function dechunk(raw: Buffer): string | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd === -1) return null;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts).toString('utf8');
    if (raw.length < lineEnd + 2 + size + 2) return null;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
