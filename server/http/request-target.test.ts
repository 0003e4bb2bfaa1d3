// The request target made into a path (request-target.ts). Through HTTP: server/main.integration.test.ts; here
// the rules one by one, TRUST_PROXY's Host included (the links' origin must not follow the target's authority).
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { pathOfTarget, toOriginForm } from './request-target';

function request(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return { url, headers: { ...headers } } as unknown as IncomingMessage;
}

describe('toOriginForm', () => {
  it('leaves a path as it is', () => {
    const req = request('/api/v1/credits?x=1', { host: 'a.example' });
    expect(toOriginForm(req, false)).toBe('origin');
    expect(req.url).toBe('/api/v1/credits?x=1');
    expect(req.headers.host).toBe('a.example');
  });

  it('takes path and query from an absolute-form target as sent, and its authority as Host', () => {
    const req = request('HTTP://Evil.Example:8080/api/v1/models/%2e%2e/x?q=%20#frag', { host: 'sb.example' });
    expect(toOriginForm(req, false)).toBe('origin');
    expect(req.url).toBe('/api/v1/models/%2e%2e/x?q=%20');
    expect(req.headers.host).toBe('evil.example:8080');
    expect(req.headers['x-forwarded-host']).toBeUndefined();
    const bare = request('http://sb.example');
    toOriginForm(bare, false);
    expect(bare.url).toBe('/');
    const query = request('https://sb.example?x=1');
    toOriginForm(query, false);
    expect(query.url).toBe('/?x=1');
  });

  it('with TRUST_PROXY keeps the Host the request came with for the links, unless the proxy said X-Forwarded-Host', () => {
    const req = request('http://evil.example/api/v1/auth/device/code', { host: 'sb.example.com' });
    toOriginForm(req, true);
    expect(req.headers).toMatchObject({ host: 'evil.example', 'x-forwarded-host': 'sb.example.com' });
    const forwarded = request('http://evil.example/x', { host: 'internal:3000', 'x-forwarded-host': 'sb.example.com' });
    toOriginForm(forwarded, true);
    expect(forwarded.headers['x-forwarded-host']).toBe('sb.example.com');
  });

  it('answers * apart, and refuses anything else', () => {
    expect(toOriginForm(request('*'), false)).toBe('asterisk');
    for (const target of ['ftp://x/y', 'api/v1/credits', 'http://user:pw@x/y', 'http:///y', 'http://exa mple/y']) {
      const req = request(target);
      expect(toOriginForm(req, false), target).toBeInstanceOf(AppError);
      expect(req.url, target).toBe(target);
    }
  });
});

describe('pathOfTarget', () => {
  it('is the path without the query, for both forms, else null', () => {
    expect(pathOfTarget('/api/v1/messages?beta=true')).toBe('/api/v1/messages');
    expect(pathOfTarget('http://x:1/api/v1/responses?a')).toBe('/api/v1/responses');
    expect(pathOfTarget('http://x')).toBe('/');
    expect(pathOfTarget('*')).toBeNull();
  });
});
