// Two-factor authentication primitives: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, ±1 step of clock
// drift — what every authenticator app speaks) and one-time recovery codes. Pure: no database here.
// The TOTP secret is stored encrypted (server/crypto/secret-box.ts: it must be read back to check codes);
// recovery codes are stored as SHA-256 hashes (they are random, 50 bits, so a fast hash is enough) and
// compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Switchboard';

function totp(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit TOTP secret in base32 (what authenticator apps take when typed in). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans (as a QR code). */
export function totpUri(secretBase32: string, accountLabel: string): string {
  return totp(secretBase32, accountLabel).toString();
}

/** The code for a time (tests, and nothing else in the server). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totp(secretBase32).generate({ timestamp: at.getTime() });
}

/**
 * The time step of the accepted code, or null. A code of the previous, current or next 30-second step is
 * accepted; the caller refuses a step not later than the last one used (replay).
 */
export function matchTotpStep(secretBase32: string, code: string, at: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: at.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: at.getTime() }) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i

/** Ten codes like "k7m2p-q9x4t" (10 characters of a 31-letter alphabet, ~50 bits each). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are compared without case, spaces or dashes (people type them back from paper). */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

/** Which stored hash `code` matches, comparing each in constant time (no early exit on the first match). */
export function findRecoveryCodeHash(code: string, hashes: string[]): string | null {
  const candidate = Buffer.from(hashRecoveryCode(code), 'hex');
  let found: string | null = null;
  for (const h of hashes) {
    const stored = Buffer.from(h, 'hex');
    if (stored.length === candidate.length && timingSafeEqual(stored, candidate) && found === null) found = h;
  }
  return found;
}
