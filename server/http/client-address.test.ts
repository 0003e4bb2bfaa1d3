// Through HTTP: a node:http server that prepares requests as server/main.ts does, then reports the address
// clientIp (the sign-in and sign-up throttles' key) reads from them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp } from '@/server/auth/sign-in-throttle';
import { pinClientAddress } from './client-address';

function serve(trustProxy: boolean) {
  return http.createServer((req, res) => {
    pinClientAddress(req, trustProxy);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    res.end(clientIp(headers));
  });
}

async function ipSeenBy(server: http.Server, headers: Record<string, string>): Promise<string> {
  const { port } = server.address() as AddressInfo;
  const res = await fetch(`http://127.0.0.1:${port}/`, { headers });
  return res.text();
}

describe('the client address behind the throttles', () => {
  const direct = serve(false);
  const proxied = serve(true);
  beforeAll(async () => {
    await Promise.all([direct, proxied].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  });
  afterAll(() => {
    direct.close();
    proxied.close();
  });

  it('ignores X-Forwarded-For and X-Real-IP sent by a client (a rotating value would dodge per-address limits)', async () => {
    expect(await ipSeenBy(direct, { 'x-forwarded-for': '203.0.113.9' })).toBe('127.0.0.1');
    expect(await ipSeenBy(direct, { 'x-real-ip': '203.0.113.10' })).toBe('127.0.0.1');
    expect(await ipSeenBy(direct, {})).toBe('127.0.0.1');
  });

  it('with TRUST_PROXY=1 reads the first X-Forwarded-For hop the proxy set', async () => {
    expect(await ipSeenBy(proxied, { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' })).toBe('203.0.113.9');
  });
});
