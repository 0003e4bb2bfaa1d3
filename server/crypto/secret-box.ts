// Secrets we must be able to read back (operators' provider keys; later, accounts' own keys) are stored
// encrypted with AES-256-GCM: a random 96-bit IV per secret and the 128-bit tag that detects any change.
// The stored text is versioned, `v1:<iv>:<tag>:<ciphertext>` in base64url, so the algorithm or the key can
// change later without guessing what an old row holds. The key is env.ts's encryptionKey() unless given.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { encryptionKey } from '@/server/env';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

function keyOrThrow(key: Buffer | null | undefined): Buffer {
  const k = key === undefined ? encryptionKey() : key;
  if (!k) throw new SecretBoxError('No encryption key: set ENCRYPTION_KEY (32 bytes, base64 or hex)');
  if (k.length !== 32) throw new SecretBoxError('The encryption key must be 32 bytes');
  return k;
}

/** Encrypts `plaintext` into the stored form `v1:<iv>:<tag>:<ciphertext>`. */
export function encryptSecret(plaintext: string, key?: Buffer | null): string {
  const k = keyOrThrow(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', k, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
}

/** The plaintext of a stored secret; a SecretBoxError if it was changed, is malformed, or another key made it. */
export function decryptSecret(stored: string, key?: Buffer | null): string {
  const parts = stored.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('Not an encrypted secret of a known version');
  const [, ivText, tagText, dataText] = parts;
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('Malformed encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOrThrow(key), iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    // GCM's tag check: a changed byte anywhere, or a different key. Which one cannot be told apart.
    throw new SecretBoxError('The encrypted secret does not match its key (changed, or encrypted with another ENCRYPTION_KEY)');
  }
}

/** Whether `text` has the stored form (not whether it decrypts). */
export function isEncryptedSecret(text: string): boolean {
  return text.startsWith(`${VERSION}:`) && text.split(':').length === 4;
}

/**
 * What may be shown of a stored secret: its first 3 and last 4 characters (`sk-…abcd`) when it has at least
 * 20, else only `…` (a short secret would be half shown).
 */
export function secretHint(secret: string): string {
  return secret.length >= 20 ? `${secret.slice(0, 3)}…${secret.slice(-4)}` : '…';
}
