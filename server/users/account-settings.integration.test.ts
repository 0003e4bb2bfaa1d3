// Account settings services: changing the password (current one required; account auth tokens revoked),
// sign-in methods and unlinking (never the last one), and deleting the account (every credential refused).
import { beforeEach, expect, it } from 'vitest';
import { authenticateBearer } from '@/server/auth/authenticate-bearer';
import { issueAuthToken } from '@/server/auth/auth-tokens';
import { linkOAuthUser } from '@/server/auth/link-oauth-user';
import { resetThrottleStore } from '@/server/auth/throttle-store';
import { verifyCredentials } from '@/server/auth/verify-credentials';
import { createApiKey } from '@/server/api-keys/create-api-key';
import { db } from '@/server/db';
import { uniqueEmail } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { changePassword } from './change-password';
import { createUser } from './create-user';
import { deleteUser } from './delete-user';
import { getSignInMethods, unlinkSignInMethod } from './sign-in-methods';

describeEachDatabase('account settings', () => {
  beforeEach(() => resetThrottleStore());

  it('changing the password needs the current one, revokes the account auth tokens, and only the new one signs in', async () => {
    const email = uniqueEmail('pw');
    const user = await createUser({ email, password: 'old password 1' });
    const cli = await issueAuthToken({ userId: user.id, deviceName: 'laptop', clientKind: 'cli' });
    await expect(changePassword({ userId: user.id, input: { current_password: 'not it at all', new_password: 'new password 2' } })).rejects.toMatchObject({ code: 'bad_request', metadata: { field: 'current_password' } });
    await expect(changePassword({ userId: user.id, input: { new_password: 'new password 2' } })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(changePassword({ userId: user.id, input: { current_password: 'old password 1', new_password: 'short' } })).rejects.toThrow();
    expect((await authenticateBearer(`Bearer ${cli.token}`)).userId).toBe(user.id);

    expect(await changePassword({ userId: user.id, input: { current_password: 'old password 1', new_password: 'new password 2' } })).toEqual({ changed: true, revoked_auth_tokens: 1, revoked_browser_sessions: 0 });
    await expect(authenticateBearer(`Bearer ${cli.token}`)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await verifyCredentials({ email, password: 'old password 1', ip: 'p' })).toBeNull();
    expect(await verifyCredentials({ email, password: 'new password 2', ip: 'p' })).toMatchObject({ id: user.id });
  });

  it('an OAuth-only user sets a first password without a current one; unlinking keeps at least one way in', async () => {
    const email = uniqueEmail('oauth');
    const { userId } = await linkOAuthUser({ provider: 'github', providerAccountId: `gh-${email}`, email, emailVerified: true });
    const methods = await getSignInMethods({ userId });
    expect(methods).toMatchObject({ email, has_password: false, identities: [{ provider: 'github' }], two_factor: { enabled: false } });
    await expect(unlinkSignInMethod({ userId, identityId: methods.identities[0].id })).rejects.toMatchObject({ code: 'conflict' });
    await linkOAuthUser({ provider: 'google', providerAccountId: `g-${email}`, email, emailVerified: true });
    expect((await getSignInMethods({ userId })).identities.map((i) => i.provider)).toEqual(['github', 'google']);
    expect(await unlinkSignInMethod({ userId, identityId: methods.identities[0].id })).toEqual({ unlinked: true, id: methods.identities[0].id });
    const google = (await getSignInMethods({ userId })).identities[0];
    await expect(unlinkSignInMethod({ userId, identityId: google.id })).rejects.toMatchObject({ code: 'conflict' });

    await changePassword({ userId, input: { new_password: 'first password' } });
    expect(await getSignInMethods({ userId })).toMatchObject({ has_password: true });
    await unlinkSignInMethod({ userId, identityId: google.id });
    expect(await getSignInMethods({ userId })).toMatchObject({ has_password: true, identities: [] });
    // Someone else's identity id is not found.
    const other = await linkOAuthUser({ provider: 'github', providerAccountId: `gh-other-${email}`, email: uniqueEmail('other'), emailVerified: true });
    const otherIdentity = (await getSignInMethods({ userId: other.userId })).identities[0];
    await expect(unlinkSignInMethod({ userId, identityId: otherIdentity.id })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('deleting the account refuses its keys, tokens and password from then on', async () => {
    const email = uniqueEmail('bye');
    const user = await createUser({ email, password: 'goodbye world' });
    const { key } = await createApiKey({ userId: user.id, input: { name: 'k' } });
    const cli = await issueAuthToken({ userId: user.id, deviceName: 'cli', clientKind: 'cli' });
    expect(await deleteUser({ userId: user.id })).toMatchObject({ deleted: true, id: user.id, revoked_api_keys: 1, revoked_auth_tokens: 1 });
    await expect(authenticateBearer(`Bearer ${key}`)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticateBearer(`Bearer ${cli.token}`)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await verifyCredentials({ email, password: 'goodbye world', ip: 'z' })).toBeNull();
    expect(await (await db()).user.findUnique({ where: { id: user.id } })).toBeNull();
  });
});
