import { describe, expect, it } from 'vitest';
import { CONSOLE_HOME, safeCallbackUrl, withCallback } from './callback-url';

describe('callback URLs', () => {
  it.each([
    ['/device?user_code=WDJB-MJHT', '/device?user_code=WDJB-MJHT'],
    ['/invite/sb-inv-abc', '/invite/sb-inv-abc'],
    ['/billing?checkout=1', '/billing?checkout=1'],
  ])('keeps local path %s', (raw, out) => expect(safeCallbackUrl(raw)).toBe(out));

  it.each(['/', '/?utm=x', undefined, ''])('sends %s to the console, never the landing page', (raw) => expect(safeCallbackUrl(raw)).toBe(CONSOLE_HOME));

  it.each(['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'device', '', null, 42, '/\u0000x'])('refuses %s', (raw) =>
    expect(safeCallbackUrl(raw, '/fallback')).toBe('/fallback'),
  );

  it('builds links that carry the callback', () => {
    expect(withCallback('/sign-in', '/device?user_code=A')).toBe('/sign-in?callbackUrl=%2Fdevice%3Fuser_code%3DA');
    expect(withCallback('/sign-in', '/')).toBe('/sign-in');
    expect(withCallback('/sign-in', CONSOLE_HOME)).toBe('/sign-in');
  });
});
