import { describe, expect, it } from 'vitest';
import { generateSecret, hashSecret, isWellFormedSecret, secretHint, TOKEN_PREFIX } from './secret-token';
import { hashPassword, verifyPassword } from './password';

describe('secret tokens', () => {
  it('generates well-formed, unique secrets with a checksum', () => {
    const a = generateSecret(TOKEN_PREFIX.apiKey);
    const b = generateSecret(TOKEN_PREFIX.apiKey);
    expect(a).not.toBe(b);
    expect(a.startsWith('sk-sb-v1-')).toBe(true);
    expect(isWellFormedSecret(a, TOKEN_PREFIX.apiKey)).toBe(true);
    // one changed character breaks the checksum
    const tampered = a.slice(0, 12) + (a[12] === 'x' ? 'y' : 'x') + a.slice(13);
    expect(isWellFormedSecret(tampered, TOKEN_PREFIX.apiKey)).toBe(false);
    expect(isWellFormedSecret(a, TOKEN_PREFIX.authToken)).toBe(false);
  });
  it('hints never reveal the secret', () => {
    const s = generateSecret(TOKEN_PREFIX.apiKey);
    const hint = secretHint(s, TOKEN_PREFIX.apiKey);
    expect(hint.length).toBeLessThan(20);
    expect(s.includes(hint.replace('…', ''))).toBe(false);
    expect(hashSecret(s)).toMatch(/^[0-9a-f]{64}$/);
  });
  it('hashes and verifies passwords', async () => {
    const h = await hashPassword('correct horse');
    expect(h.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('wrong horse', h)).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
  });
});
