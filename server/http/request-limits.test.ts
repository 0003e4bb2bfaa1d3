// limitBody as server/main.ts applies it to every request it hands to Next (account API, webhooks, server
// actions), through HTTP: a body with a Content-Encoding is a 415 with Accept-Encoding: identity before Next
// reads it (a gzip body reached route handlers as "Malformed JSON", plain JSON labelled gzip was accepted);
// the 413 states the limit as "1 MiB" (it said "1024 KB").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatByteLimit } from './read-body';
import { limitBody, NEXT_BODY_LIMIT_BYTES } from './request-limits';

describe('limitBody (the production server, before Next)', () => {
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!limitBody(req, res, NEXT_BODY_LIMIT_BYTES, 'req-test')) return;
      // Stands in for Next: reads the body and says what it got.
      let size = 0;
      req.on('data', (c: Buffer) => (size += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ read: size })));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const post = (body: Buffer | string, headers: Record<string, string> = {}) =>
    fetch(`${origin}/api/v1/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });

  it('415 with Accept-Encoding: identity for any coded body; identity and no body pass', async () => {
    const json = JSON.stringify({ name: 'k' });
    for (const [coding, body] of [['gzip', gzipSync(json)], ['gzip', json], ['br', json], ['banana', json]] as const) {
      const res = await post(body, { 'content-encoding': coding });
      expect(res.status, coding).toBe(415);
      expect(res.headers.get('accept-encoding'), coding).toBe('identity');
      expect((await res.json()).error, coding).toMatchObject({
        code: 415,
        message: `Content-Encoding ${coding} is not supported: request bodies must be sent uncompressed (no Content-Encoding)`,
        metadata: { error_type: 'unsupported_media_type', content_encoding: coding },
      });
    }
    const identity = await post(json, { 'content-encoding': 'identity' });
    expect(await identity.json()).toEqual({ read: json.length });
    // A GET has no body to decode: its Content-Encoding is not refused.
    expect((await fetch(`${origin}/api/v1/models`, { headers: { 'content-encoding': 'gzip' } })).status).toBe(200);
  });

  it('413 states the limit exactly', async () => {
    const res = await post('x'.repeat(NEXT_BODY_LIMIT_BYTES + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ message: 'Request body is larger than the limit of 1 MiB', metadata: { limit_bytes: NEXT_BODY_LIMIT_BYTES } });
  });

  it('formatByteLimit: binary units when exact, else bytes', () => {
    expect(formatByteLimit(25 * 1024 * 1024)).toBe('25 MiB');
    expect(formatByteLimit(1024 * 1024)).toBe('1 MiB');
    expect(formatByteLimit(512 * 1024)).toBe('512 KiB');
    expect(formatByteLimit(1_000_000)).toBe('1,000,000 bytes');
  });
});
