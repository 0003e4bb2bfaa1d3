import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEncryptionKey, encryptionKey, parseEnv, resetEnvCache } from '@/server/env';
import { decryptSecret, encryptSecret, isEncryptedSecret, SecretBoxError } from './secret-box';

const key = randomBytes(32);

describe('secret box (AES-256-GCM)', () => {
  it('round-trips, with a fresh IV each time and no plaintext in the stored form', () => {
    const secret = 'sk-live-0123456789abcdef-ünïcødé';
    const a = encryptSecret(secret, key);
    const b = encryptSecret(secret, key);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('0123456789abcdef');
    expect(isEncryptedSecret(a)).toBe(true);
    expect(decryptSecret(a, key)).toBe(secret);
    expect(decryptSecret(b, key)).toBe(secret);
  });

  it('refuses a changed ciphertext, tag or IV', () => {
    const stored = encryptSecret('sk-tamper-me', key);
    const [v, iv, tag, data] = stored.split(':');
    const flip = (s: string) => {
      const bytes = Buffer.from(s, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    for (const changed of [[v, iv, tag, flip(data)], [v, iv, flip(tag), data], [v, flip(iv), tag, data]]) {
      expect(() => decryptSecret(changed.join(':'), key)).toThrow(SecretBoxError);
    }
  });

  it('refuses another key, an unknown version and malformed text', () => {
    const stored = encryptSecret('sk-other-key', key);
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow(/another ENCRYPTION_KEY/);
    expect(() => decryptSecret(stored.replace(/^v1:/, 'v2:'), key)).toThrow(/known version/);
    expect(() => decryptSecret('sk-plain-text', key)).toThrow(SecretBoxError);
    expect(() => decryptSecret('v1:AAAA:BBBB:CCCC', key)).toThrow(/Malformed/);
    expect(() => encryptSecret('x', Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('ENCRYPTION_KEY', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ['ENCRYPTION_KEY', 'DATABASE_URL', 'DATA_DIR', 'AUTH_SECRET']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    resetEnvCache();
  });

  it('accepts 32 bytes as hex, base64 or base64url and names the variable otherwise', () => {
    const bytes = randomBytes(32);
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(decodeEncryptionKey(text)).toEqual(bytes);
      expect(parseEnv({ ENCRYPTION_KEY: text }).ENCRYPTION_KEY).toBe(text);
    }
    for (const bad of ['short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64'), 'z'.repeat(64)]) {
      expect(decodeEncryptionKey(bad)).toBeNull();
      expect(() => parseEnv({ ENCRYPTION_KEY: bad })).toThrow(/ENCRYPTION_KEY: ENCRYPTION_KEY must be 32 bytes/);
    }
  });

  it('embedded without ENCRYPTION_KEY: one key generated and kept owner-only in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-secret-box-'));
    try {
      delete process.env.ENCRYPTION_KEY;
      delete process.env.DATABASE_URL;
      process.env.DATA_DIR = dir;
      resetEnvCache();
      const first = encryptionKey();
      expect(first).toHaveLength(32);
      const file = path.join(dir, 'encryption-key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(decodeEncryptionKey(readFileSync(file, 'utf8'))).toEqual(first);
      resetEnvCache();
      expect(encryptionKey()).toEqual(first);
      const stored = encryptSecret('sk-kept');
      expect(decryptSecret(stored, first)).toBe('sk-kept');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PostgreSQL without ENCRYPTION_KEY: no key (secrets are refused), and ENCRYPTION_KEY wins when set', () => {
    process.env.DATABASE_URL = 'postgresql://localhost/x';
    process.env.AUTH_SECRET = 'a'.repeat(32);
    delete process.env.ENCRYPTION_KEY;
    resetEnvCache();
    expect(encryptionKey()).toBeNull();
    expect(() => encryptSecret('sk-x')).toThrow(/set ENCRYPTION_KEY/);
    const bytes = randomBytes(32);
    process.env.ENCRYPTION_KEY = bytes.toString('hex');
    resetEnvCache();
    expect(encryptionKey()).toEqual(bytes);
  });
});
