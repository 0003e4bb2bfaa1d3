import { beforeEach, expect, it } from 'vitest';
import { db } from '@/server/db';
import { createUser } from '@/server/users/create-user';
import { uniqueEmail } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { linkOAuthUser } from './link-oauth-user';
import { resetThrottleStore } from './throttle-store';
import { verifyCredentials } from './verify-credentials';

describeEachDatabase('sign-in', () => {
  beforeEach(() => resetThrottleStore());

  it('verifies email + password, case-insensitively on the email; wrong or unknown → null', async () => {
    const email = uniqueEmail('pw');
    const user = await createUser({ email, password: 'correct horse', name: 'Pat' });
    expect(await verifyCredentials({ email: email.toUpperCase(), password: 'correct horse', ip: 'a' })).toMatchObject({ id: user.id, email });
    expect(await verifyCredentials({ email, password: 'wrong horse', ip: 'a' })).toBeNull();
    expect(await verifyCredentials({ email: uniqueEmail('nobody'), password: 'correct horse', ip: 'a' })).toBeNull();
    expect(await verifyCredentials({ email: 'not-an-email', password: 'x', ip: 'a' })).toBeNull();
    expect(await verifyCredentials({ email, password: undefined, ip: 'a' })).toBeNull();
  });

  it('throttles guessing: after 5 failures the right password also waits', async () => {
    const email = uniqueEmail('guess');
    await createUser({ email, password: 'correct horse' });
    for (let i = 0; i < 5; i++) expect(await verifyCredentials({ email, password: `guess ${i}`, ip: 'b' })).toBeNull();
    await expect(verifyCredentials({ email, password: 'correct horse', ip: 'b' })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await verifyCredentials({ email, password: 'correct horse', ip: 'c' })).not.toBeNull();
  });

  it('OAuth: creates a verified user, reuses the identity, links by verified email only', async () => {
    const email = uniqueEmail('gh');
    const first = await linkOAuthUser({ provider: 'github', providerAccountId: `gh-${email}`, email, emailVerified: true, name: 'Octo', image: 'https://avatars.example/1' });
    expect(first.created).toBe(true);
    const again = await linkOAuthUser({ provider: 'github', providerAccountId: `gh-${email}`, email: null, emailVerified: false });
    expect(again).toEqual({ userId: first.userId, created: false });
    const prisma = await db();
    expect(await prisma.user.findUnique({ where: { id: first.userId }, select: { emailVerifiedAt: true, image: true, name: true } })).toMatchObject({ image: 'https://avatars.example/1', name: 'Octo' });

    await expect(linkOAuthUser({ provider: 'google', providerAccountId: `g-${email}`, email, emailVerified: false })).rejects.toMatchObject({ code: 'forbidden' });
    const google = await linkOAuthUser({ provider: 'google', providerAccountId: `g-${email}`, email: email.toUpperCase(), emailVerified: true });
    expect(google).toEqual({ userId: first.userId, created: false });
  });

  it('OAuth linking to an unverified password account drops the password (pre-account hijacking)', async () => {
    const email = uniqueEmail('squat');
    const squatter = await createUser({ email, password: 'squatters pw' });
    const linked = await linkOAuthUser({ provider: 'google', providerAccountId: `g-${email}`, email, emailVerified: true });
    expect(linked.userId).toBe(squatter.id);
    expect(await verifyCredentials({ email, password: 'squatters pw', ip: 'd' })).toBeNull();
  });
});
