// A fake LLM upstream for the gateway's integration tests: a real HTTP server on 127.0.0.1 that answers
// with whatever the test's handler says (JSON, text, or raw SSE chunks replayed from the recorded
// fixtures) and records every request, including whether the client hung up before the answer ended.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. "/v1/chat/completions?alt=sse". */
  path: string;
  /** Lowercased by node:http. */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when it is empty or not JSON (see rawBody). */
  body: unknown;
  rawBody: string;
  /** True once the client closed the connection before the response was complete. */
  aborted: boolean;
}

type Headers = Record<string, string>;

export type FakeResponse =
  | { status: number; json: unknown; headers?: Headers }
  | { status: number; text: string; headers?: Headers }
  | {
      status?: number;
      /** Raw chunks, written one by one (see fixtureChunks). */
      sse: string[];
      /** Pause before each chunk after the first. */
      delayMs?: number;
      headers?: Headers;
      /** Stop writing after this many chunks but keep the connection open (a stalled upstream). */
      hangAfter?: number;
      /** Destroy the socket after this many chunks (an upstream that dies mid-stream). */
      destroyAfter?: number;
    };

export type FakeHandler = (req: RecordedRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeUpstream {
  /** "http://127.0.0.1:<port>", without a trailing slash. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Resolves once the answer to requests[index] (default: the latest) is over, written out or aborted. */
  whenClosed(index?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '..');

/** The text of server/providers/<provider>/__fixtures__/<file>, e.g. readFixture('openai', 'text.chunks.txt'). */
export function readFixture(provider: string, file: string): string {
  return readFileSync(path.join(REPO_ROOT, 'server', 'providers', provider, '__fixtures__', file), 'utf8');
}

/**
 * A recorded stream cut into its SSE events, each with its blank line, so the fake writes them one at a
 * time. `file` may omit the extension: fixtureChunks('openai', 'text') reads text.chunks.txt. A final
 * piece without a blank line (a truncated recording) is kept as the last chunk, byte for byte.
 */
export function fixtureChunks(provider: string, file: string): string[] {
  const raw = readFixture(provider, file.includes('.') ? file : `${file}.chunks.txt`);
  const chunks: string[] = [];
  const boundary = /\r\n\r\n|\n\n|\r\r/g;
  let start = 0;
  for (let m = boundary.exec(raw); m; m = boundary.exec(raw)) {
    chunks.push(raw.slice(start, m.index + m[0].length));
    start = m.index + m[0].length;
  }
  if (start < raw.length) chunks.push(raw.slice(start));
  return chunks;
}

export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  const closed: Array<Promise<RecordedRequest>> = [];
  let closing = false;

  const server = createServer((req, res) => {
    const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: undefined, rawBody: '', aborted: false };
    requests.push(record);
    /** Set when the fake itself ends the exchange early (destroyAfter, close()), which is not a client abort. */
    let endedByUs = false;
    closed.push(
      new Promise((resolve) => {
        res.on('close', () => {
          if (!res.writableFinished && !endedByUs && !closing) record.aborted = true;
          resolve(record);
        });
      }),
    );

    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      record.rawBody = Buffer.concat(parts).toString('utf8');
      try {
        record.body = record.rawBody ? JSON.parse(record.rawBody) : undefined;
      } catch {
        record.body = undefined;
      }
      Promise.resolve()
        .then(() => handler(record))
        .then((answer) =>
          respond(res, answer, () => {
            endedByUs = true;
          }),
        )
        .catch((err: unknown) => {
          if (res.headersSent) return void res.destroy();
          res.writeHead(500, { 'content-type': 'text/plain' }).end(`fake upstream handler failed: ${err instanceof Error ? err.message : String(err)}`);
        });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    whenClosed(index = closed.length - 1) {
      const pending = closed[index];
      if (!pending) return Promise.reject(new Error(`fake upstream has no request #${index} (received ${closed.length})`));
      return pending;
    },
    close() {
      closing = true;
      // Stalled streams (hangAfter) and idle keep-alive sockets would otherwise hold close() forever.
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

async function respond(res: ServerResponse, answer: FakeResponse, markEndedByUs: () => void): Promise<void> {
  if ('json' in answer) {
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.json));
    return;
  }
  if ('text' in answer) {
    res.writeHead(answer.status, { 'content-type': 'text/plain; charset=utf-8', ...answer.headers }).end(answer.text);
    return;
  }
  res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...answer.headers });
  // Headers go out now, as a real upstream sends them before its first token.
  res.flushHeaders();
  for (let i = 0; i < answer.sse.length; i++) {
    if (i === answer.hangAfter) return; // never end: the client (or close()) must hang up
    if (i === answer.destroyAfter) {
      markEndedByUs();
      res.destroy();
      return;
    }
    if (i > 0 && answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return; // the client went away during the pause
    // Waiting for each write to be flushed keeps chunks apart on the wire and makes sure all of them
    // are out before a destroyAfter cuts the socket.
    await new Promise<void>((resolve) => res.write(answer.sse[i], () => resolve()));
  }
  if (answer.hangAfter === answer.sse.length) return;
  if (answer.destroyAfter === answer.sse.length) {
    markEndedByUs();
    res.destroy();
    return;
  }
  res.end();
}
