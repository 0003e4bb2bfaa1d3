// The headers server/main.ts puts on every response it hands to Next, through HTTP, in each deployment mode:
// HSTS only when pages really reach the browser over https (PUBLIC_URL https, or a trusted proxy saying so).
// e2e/security-headers.spec.ts checks the same headers on the production build and that no page breaks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { setSecurityHeaders } from './security-headers';

const SETTINGS = ['PUBLIC_URL', 'TRUST_PROXY'] as const;

describe('security headers', () => {
  let server: http.Server;
  let origin: string;
  const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));
  const configure = (settings: Partial<Record<(typeof SETTINGS)[number], string>>) => {
    for (const k of SETTINGS) delete process.env[k];
    Object.assign(process.env, settings);
    resetEnvCache();
  };
  const get = (headers: Record<string, string> = {}) => fetch(`${origin}/overview`, { headers }).then((r) => r.headers);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      setSecurityHeaders(req, res);
      res.end('<!doctype html><p>page</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => configure({}));
  afterAll(async () => {
    configure(Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)) as Record<string, string>);
    await new Promise((r) => server.close(r));
  });

  it('forbid framing and sniffing, and send only the origin to other sites', async () => {
    configure({});
    const h = await get();
    const csp = h.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(h.get('x-frame-options')).toBe('DENY');
  });

  it('let only the API reference page (/docs) eval, for its renderer', async () => {
    const policy = async (path: string) => (await fetch(`${origin}${path}`)).headers.get('content-security-policy') ?? '';
    expect(await policy('/docs')).toContain("'unsafe-eval'");
    expect(await policy('/docs')).toContain("frame-ancestors 'none'");
    for (const path of ['/overview', '/docs/x', '/', '/docsx']) expect(await policy(path)).not.toContain('unsafe-eval');
  });

  it('send HSTS only over https: PUBLIC_URL https, or X-Forwarded-Proto https from a trusted proxy', async () => {
    configure({});
    expect((await get({ 'x-forwarded-proto': 'https' })).get('strict-transport-security')).toBeNull();
    configure({ TRUST_PROXY: '1' });
    expect((await get({ 'x-forwarded-proto': 'https' })).get('strict-transport-security')).toBe('max-age=31536000');
    expect((await get({ 'x-forwarded-proto': 'http' })).get('strict-transport-security')).toBeNull();
    configure({ PUBLIC_URL: 'https://switchboard.example.com' });
    expect((await get()).get('strict-transport-security')).toBe('max-age=31536000');
    configure({ PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: '1' });
    expect((await get({ 'x-forwarded-proto': 'https' })).get('strict-transport-security')).toBeNull();
  });
});
