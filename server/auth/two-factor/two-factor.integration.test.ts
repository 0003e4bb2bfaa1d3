// Two-factor authentication end to end through the services: setup (a wrong code refused, recovery codes
// shown once and stored as hashes), password sign-in then needing a code, TOTP replay refused, a recovery
// code accepted once, the throttle counting code guesses, and turning it off needing a code.
import { beforeEach, expect, it } from 'vitest';
import { decryptSecret } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { createUser } from '@/server/users/create-user';
import { getSignInMethods } from '@/server/users/sign-in-methods';
import { uniqueEmail } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { resetThrottleStore } from '../throttle-store';
import { totpCodeAt } from '../totp';
import { verifyCredentials } from '../verify-credentials';
import { disableTwoFactor } from './disable-two-factor';
import { confirmTwoFactorSetup, startTwoFactorSetup } from './two-factor-setup';

const PASSWORD = 'correct horse battery';

async function userWithTwoFactor(now: Date) {
  const email = uniqueEmail('tfa');
  const user = await createUser({ email, password: PASSWORD });
  const setup = await startTwoFactorSetup({ userId: user.id });
  const { recovery_codes } = await confirmTwoFactorSetup({ userId: user.id, input: { code: totpCodeAt(setup.secret, now) }, now });
  return { user, email, secret: setup.secret, recoveryCodes: recovery_codes };
}

describeEachDatabase('two-factor authentication (TOTP)', () => {
  beforeEach(() => resetThrottleStore());

  it('setup: secret stored encrypted, QR code of the otpauth URI, a wrong code refused, ten recovery codes stored as hashes', async () => {
    const user = await createUser({ email: uniqueEmail('setup'), password: PASSWORD });
    const setup = await startTwoFactorSetup({ userId: user.id });
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_uri).toMatch(new RegExp(`^otpauth://totp/Switchboard:.*secret=${setup.secret}.*`));
    expect(setup.otpauth_uri).toContain('algorithm=SHA1&digits=6&period=30');
    expect(setup.qr_data_url).toMatch(/^data:image\/png;base64,/);
    const prisma = await db();
    const stored = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { totpSecretEncrypted: true, totpEnabledAt: true } });
    expect(stored.totpSecretEncrypted).not.toContain(setup.secret);
    expect(decryptSecret(stored.totpSecretEncrypted!)).toBe(setup.secret);
    expect(stored.totpEnabledAt).toBeNull();
    // Not on until confirmed: sign-in needs no code yet.
    expect(await verifyCredentials({ email: user.email, password: PASSWORD, ip: 'x' })).toMatchObject({ id: user.id });

    const now = new Date();
    const wrong = totpCodeAt(setup.secret, new Date(now.getTime() - 5 * 60_000));
    await expect(confirmTwoFactorSetup({ userId: user.id, input: { code: wrong }, now })).rejects.toMatchObject({ code: 'bad_request', metadata: { reason: 'invalid_code' } });
    await expect(confirmTwoFactorSetup({ userId: user.id, input: { code: '12345' }, now })).rejects.toMatchObject({ code: 'bad_request' });
    const { recovery_codes } = await confirmTwoFactorSetup({ userId: user.id, input: { code: totpCodeAt(setup.secret, now) }, now });
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    const rows = await prisma.recoveryCode.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(10);
    for (const code of recovery_codes) expect(JSON.stringify(rows)).not.toContain(code);
    expect((await getSignInMethods({ userId: user.id })).two_factor).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    await expect(startTwoFactorSetup({ userId: user.id })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('password sign-in then requires a code: none → two_factor_required, wrong → invalid_code, right → signed in; a code works once', async () => {
    const now = new Date();
    const { user, email, secret } = await userWithTwoFactor(now);
    await expect(verifyCredentials({ email, password: PASSWORD, ip: 'a', now })).rejects.toMatchObject({ code: 'unauthorized', metadata: { reason: 'two_factor_required' } });
    await expect(verifyCredentials({ email, password: PASSWORD, code: '000000', ip: 'a', now })).rejects.toMatchObject({ metadata: { reason: 'invalid_code' } });
    // A wrong password is still just null, code or not (nothing about two-factor is revealed).
    expect(await verifyCredentials({ email, password: 'wrong password', code: totpCodeAt(secret, now), ip: 'a', now })).toBeNull();
    const later = new Date(now.getTime() + 30_000);
    const code = totpCodeAt(secret, later);
    expect(await verifyCredentials({ email, password: PASSWORD, code, ip: 'a', now: later })).toMatchObject({ id: user.id });
    // The same code again (still inside its window) is a replay.
    await expect(verifyCredentials({ email, password: PASSWORD, code, ip: 'a', now: later })).rejects.toMatchObject({ metadata: { reason: 'invalid_code' } });
    // The code of the next step (clock drift of one step) is accepted.
    const next = new Date(later.getTime() + 30_000);
    expect(await verifyCredentials({ email, password: PASSWORD, code: totpCodeAt(secret, new Date(next.getTime() + 30_000)), ip: 'a', now: next })).toMatchObject({ id: user.id });
  });

  it('a recovery code signs in once, in any case and with or without its dash', async () => {
    const now = new Date();
    const { user, email, recoveryCodes } = await userWithTwoFactor(now);
    const code = recoveryCodes[3];
    expect(await verifyCredentials({ email, password: PASSWORD, code: code.toUpperCase().replace('-', ''), ip: 'r', now })).toMatchObject({ id: user.id });
    await expect(verifyCredentials({ email, password: PASSWORD, code, ip: 'r', now })).rejects.toMatchObject({ metadata: { reason: 'invalid_code' } });
    expect((await getSignInMethods({ userId: user.id })).two_factor.recovery_codes_left).toBe(9);
    expect(await verifyCredentials({ email, password: PASSWORD, code: recoveryCodes[4], ip: 'r', now })).toMatchObject({ id: user.id });
  });

  it('code guesses count in the sign-in throttle', async () => {
    const now = new Date();
    const { email, secret } = await userWithTwoFactor(now);
    for (let i = 0; i < 5; i++) await expect(verifyCredentials({ email, password: PASSWORD, code: `11111${i}`, ip: 'g', now })).rejects.toMatchObject({ metadata: { reason: 'invalid_code' } });
    await expect(verifyCredentials({ email, password: PASSWORD, code: totpCodeAt(secret, now), ip: 'g', now })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('turning it off needs a right code; then sign-in needs none, and the secret and recovery codes are gone', async () => {
    const now = new Date();
    const { user, email, secret } = await userWithTwoFactor(now);
    await expect(disableTwoFactor({ userId: user.id, input: { code: '123456' }, now })).rejects.toMatchObject({ code: 'bad_request' });
    const later = new Date(now.getTime() + 30_000);
    expect(await disableTwoFactor({ userId: user.id, input: { code: totpCodeAt(secret, later) }, now: later })).toEqual({ enabled: false, revoked_browser_sessions: 0 });
    expect(await verifyCredentials({ email, password: PASSWORD, ip: 'd' })).toMatchObject({ id: user.id });
    const prisma = await db();
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { totpSecretEncrypted: true, totpEnabledAt: true } })).toEqual({ totpSecretEncrypted: null, totpEnabledAt: null });
    expect(await prisma.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    await expect(disableTwoFactor({ userId: user.id, input: { code: '123456' } })).rejects.toMatchObject({ code: 'conflict' });
  });
});
