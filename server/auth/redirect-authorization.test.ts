import { describe, expect, it } from 'vitest';
import { allowedRedirectUri, defaultClientName, denyRedirectAuthorization } from './redirect-authorization';

describe('redirect URIs for the editor flow', () => {
  it.each([
    'vscode://switchboard.switchboard/auth',
    'vscode-insiders://switchboard.switchboard/auth?x=1',
    'cursor://switchboard.switchboard/auth',
    'windsurf://switchboard.switchboard/auth',
    'http://127.0.0.1:53682/callback',
    'http://localhost:8976/',
  ])('allows %s', (uri) => expect(allowedRedirectUri(uri)).not.toBeNull());

  it.each([
    'https://evil.example/callback',
    'http://evil.example:8080/callback',
    'http://127.0.0.1/callback', // no explicit port
    'http://localhost.evil.example:8080/',
    'http://127.0.0.1:8080@evil.example/',
    'http://user:pw@127.0.0.1:8080/',
    'https://127.0.0.1:8080/',
    'javascript:alert(1)',
    'vscode:///no-authority',
    'file:///etc/passwd',
    'not a url',
    '',
    null,
  ])('refuses %s', (uri) => expect(allowedRedirectUri(uri as string)).toBeNull());

  it('names clients by scheme and sends denials back with the state', () => {
    expect(defaultClientName(new URL('cursor://x.y/auth'))).toBe('Cursor');
    expect(defaultClientName(new URL('http://127.0.0.1:5000/cb'))).toBe('Local app on port 5000');
    const { redirect } = denyRedirectAuthorization({ input: { redirect_uri: 'http://127.0.0.1:5000/cb', state: 's 1' } });
    expect(redirect).toBe('http://127.0.0.1:5000/cb?error=access_denied&state=s+1');
    expect(() => denyRedirectAuthorization({ input: { redirect_uri: 'https://evil.example/', state: 's' } })).toThrow();
  });
});
