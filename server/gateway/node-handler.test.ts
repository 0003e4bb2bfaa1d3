// The node transport writes a stream's pieces straight to the socket, framed as HTTP/1.1 chunks itself
// (writeStreamed): what a client reads must be exactly what res.write() would have delivered.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeTransport } from './node-handler';
import type { ChatTransport } from './transport';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose one handler streams with the node transport; resolves with its port. */
function serve(handler: (t: ChatTransport) => Promise<void> | void): Promise<number> {
  server = http.createServer((req, res) => {
    req.resume();
    void handler(nodeTransport(req, res));
  });
  return new Promise((resolve) => server!.listen(0, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port)));
}

/** The raw bytes of one request's answer, read until the server closes or `until` holds. */
function rawExchange(port: number, request: string, until?: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('utf8');
      if (until?.(text)) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const pieces = [': keep-alive\n\n', 'data: {"content":"héllo ✓"}\n\n', '', 'data: [DONE]\n\n'];

describe('nodeTransport streaming writes', () => {
  it('frames each piece as one HTTP/1.1 chunk (byte lengths, not characters; an empty piece writes nothing)', async () => {
    const port = await serve((t) => {
      t.startStream({});
      for (const p of pieces) void t.write(p);
      t.end();
    });
    const raw = await rawExchange(port, 'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', (text) => text.endsWith('0\r\n\r\n'));
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(raw).toMatch(/transfer-encoding: chunked/i);
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    expect(body).toBe(chunk(pieces[0]!) + chunk(pieces[1]!) + chunk(pieces[3]!) + '0\r\n\r\n');
  });

  it('gives a node:http client the pieces back whole, and keeps the connection usable for the next request', async () => {
    const port = await serve((t) => {
      t.startStream({});
      for (const p of pieces) void t.write(p);
      t.end();
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<string>((resolve, reject) => {
        http.request({ port, host: '127.0.0.1', method: 'POST', agent }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(text));
        }).on('error', reject).end();
      });
    expect(await get()).toBe(pieces.join(''));
    expect(await get()).toBe(pieces.join(''));
    agent.destroy();
  });

  it('writes unframed text to an HTTP/1.0 client (its body ends with the connection)', async () => {
    const port = await serve((t) => {
      t.startStream({});
      for (const p of pieces) void t.write(p);
      t.end();
    });
    const raw = await rawExchange(port, 'POST /x HTTP/1.0\r\nContent-Length: 0\r\n\r\n');
    expect(raw.slice(raw.indexOf('\r\n\r\n') + 4)).toBe(pieces.join(''));
  });

  it('returns a promise while the client does not read (backpressure), resolved once it drains', async () => {
    const big = `data: ${'x'.repeat(64 * 1024)}\n\n`;
    let resolved = 0;
    let pendingAt = -1;
    const finished = new Promise<void>((resolveFinished) => {
      void serve(async (t) => {
        t.startStream({});
        for (let i = 0; i < 200; i++) {
          const p = t.write(big);
          if (p) {
            pendingAt = i;
            await p;
            resolved++;
            break;
          }
        }
        t.end();
        resolveFinished();
      }).then((port) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'));
        socket.pause();
        // Start reading only once the server is stuck on a full socket.
        const poll = setInterval(() => {
          if (pendingAt >= 0) {
            clearInterval(poll);
            socket.resume();
            socket.on('data', () => {});
          }
        }, 5);
        socket.on('close', () => clearInterval(poll));
      });
    });
    await finished;
    expect(pendingAt).toBeGreaterThanOrEqual(0);
    expect(resolved).toBe(1);
  });
});
