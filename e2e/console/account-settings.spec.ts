// The account settings journey: the sign-in methods of a password user, profile, password change, two-factor
// authentication turned on with a code computed here from the secret the page shows, sign-in then asking for a
// code, a recovery code working once, and deleting the account.
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { captureJourney, expectAccessible } from '../a11y';
import { expect, test } from '../fixtures';

const codeFor = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

async function signOut(page: Page) {
  await page.getByRole('button', { name: /Your profile/ }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/sign-in'));
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/sign-in?callbackUrl=%2Faccount');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('profile, password, two-factor sign-in with a code and a recovery code, then deleting the account', async ({ signedInPage: page, user }) => {
  test.setTimeout(240_000); // the whole journey: five sign-ins, axe four times in two themes, screenshots
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();

  // Sign-in methods: a password user has the password method, set (and no provider linked).
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await expect(methods).toBeVisible();
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await expect(methods.getByRole('listitem').first()).toHaveText(/^Email and password\s*Set$/);

  // Profile.
  await page.getByLabel('Name').fill('Renamed Person');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();

  // Password: the current one is required.
  const newPassword = `new-${user.password}`;
  await page.getByLabel('Current password').fill('not the password');
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is not right')).toBeVisible();
  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed.')).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveValue('');

  // Two-factor: scan (here: read) the secret, confirm with a code, recovery codes shown once.
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByRole('img', { name: 'QR code of your two-factor secret' })).toBeVisible();
  const secret = await page.getByLabel('Two-factor secret', { exact: true }).inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page);
  await captureJourney(page, 'account-two-factor-setup');
  await page.getByLabel('2. Enter the 6-digit code the app shows').fill(codeFor(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await captureJourney(page, 'account-recovery-codes');
  await page.getByRole('button', { name: 'I\'ve saved my recovery codes' }).click();
  await expect(page.getByText('On since')).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'account-settings');

  // Sign out; password sign-in now asks for a code. (The next step's code: the one used to turn it on is spent.)
  await signOut(page);
  await signInWithPassword(page, user.email, newPassword);
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await expectAccessible(page);
  await captureJourney(page, 'sign-in-two-factor');
  await page.getByLabel('Authentication code').fill(codeFor(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();

  // A recovery code signs in once.
  await signOut(page);
  await signInWithPassword(page, user.email, newPassword);
  await page.getByLabel('Authentication code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account');
  await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();
  await signOut(page);
  await signInWithPassword(page, user.email, newPassword);
  await page.getByLabel('Authentication code').fill(recovery[0]);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByText('That code is not right, or it was already used.')).toBeVisible();
  await page.getByLabel('Authentication code').fill(recovery[1]);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/account');

  // Delete the account: signed out, and the password no longer signs in.
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete account' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/sign-in'));
  await signInWithPassword(page, user.email, newPassword);
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
});
