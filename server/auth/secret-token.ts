// Secrets we hand out (API keys, account auth tokens, invite and device codes): a recognisable prefix,
// 256 bits of randomness in base62 and a CRC-32 checksum (GitHub's token format idea), so a mistyped or
// truncated secret is rejected without a database lookup and a leaked one is easy to scan for.
// Only the SHA-256 hash is stored; lookups go by hash through a unique index (a constant-time
// comparison of equal-length digests guards the final check).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const TOKEN_PREFIX = {
  apiKey: 'sk-sb-v1-',
  authToken: 'sb-at-v1-',
  invite: 'sb-inv-',
  device: 'sb-dev-',
} as const;

function toBase62(buf: Buffer, length: number): string {
  let n = BigInt('0x' + buf.toString('hex'));
  let out = '';
  while (out.length < length) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

function crc32(s: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = CRC_TABLE[(c ^ s.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(Buffer.from(crc32(body).toString(16).padStart(8, '0'), 'hex'), 6);
}

const BODY_LENGTH = 43; // 256 bits in base62

export function generateSecret(prefix: string): string {
  const body = toBase62(randomBytes(32), BODY_LENGTH);
  return prefix + body + checksum(prefix + body);
}

/** Cheap syntactic check: right prefix, right length, checksum matches. */
export function isWellFormedSecret(secret: string, prefix: string): boolean {
  if (secret.length !== prefix.length + BODY_LENGTH + 6 || !secret.startsWith(prefix)) return false;
  const body = secret.slice(0, prefix.length + BODY_LENGTH);
  return checksum(body) === secret.slice(prefix.length + BODY_LENGTH);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretsEqual(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, 'hex');
  const b = Buffer.from(bHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** "sk-sb-v1-AbC…x9Z": enough to recognise a secret in a list, never enough to use it. */
export function secretHint(secret: string, prefix: string): string {
  return `${prefix}${secret.slice(prefix.length, prefix.length + 3)}…${secret.slice(-4)}`;
}

/** Short human-typable code for the device flow, e.g. "WDJB-MJHT" (no vowels or look-alikes). */
export function generateUserCode(): string {
  const alphabet = 'BCDFGHJKLMNPQRSTVWXZ';
  const bytes = randomBytes(8);
  let s = '';
  for (let i = 0; i < 8; i++) s += alphabet[bytes[i] % alphabet.length];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}
