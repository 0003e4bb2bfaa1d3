import { describe, expect, it } from 'vitest';
import { findRecoveryCodeHash, hashRecoveryCode, matchTotpStep, newRecoveryCodes, newTotpSecret, totpCodeAt, totpUri } from './totp';

describe('TOTP', () => {
  // RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (base32 below), 8-digit 94287082 at T=59 → 6 digits 287082.
  const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it('computes the RFC 6238 test vector and accepts codes one step either side, not two', () => {
    const at = new Date(59_000);
    expect(totpCodeAt(RFC_SECRET, at)).toBe('287082');
    expect(matchTotpStep(RFC_SECRET, '287082', at)).toBe(1);
    expect(matchTotpStep(RFC_SECRET, '287 082', at)).toBe(1);
    const now = new Date(1_700_000_000_000);
    const step = Math.floor(now.getTime() / 30_000);
    expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(matchTotpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, new Date(now.getTime() + 90_000)), now)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, 'abcdef', now)).toBeNull();
    expect(matchTotpStep(RFC_SECRET, '1234567', now)).toBeNull();
  });

  it('makes 160-bit base32 secrets and an otpauth URI apps understand', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, 'pat@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Switchboard');
    expect(uri.searchParams.get('period')).toBe('30');
  });
});

describe('recovery codes', () => {
  it('ten distinct codes; matched without case or dashes, only against the given hashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const hashes = codes.map(hashRecoveryCode);
    expect(findRecoveryCodeHash(codes[2].toUpperCase().replace('-', ' '), hashes)).toBe(hashes[2]);
    expect(findRecoveryCodeHash(codes[2], hashes.filter((_, i) => i !== 2))).toBeNull();
    expect(findRecoveryCodeHash('not-a-code', hashes)).toBeNull();
  });
});
