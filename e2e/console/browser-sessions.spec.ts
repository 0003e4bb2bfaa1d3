// Browser sessions (Account settings → Sessions): the same user signed in from two browsers sees both, this one
// marked; signing the other out from here sends that browser to the sign-in page on its next navigation, and
// "Sign out all other sessions" does the same to every other browser.
import type { Browser, Page } from '@playwright/test';
import { captureJourney, expectAccessible } from '../a11y';
import { expect, test, type E2eUser } from '../fixtures';

const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

/**
 * Password sign-in for a user who has accepted the terms already (the `signedInPage` fixture did): the terms
 * step passes straight on, so this waits for the destination rather than for the terms page.
 */
async function signIn(page: Page, user: E2eUser, callbackUrl: string) {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname + url.search === callbackUrl);
}

/** The user signed in from another browser (its own cookies, its own user agent), left on the keys page. */
async function anotherBrowser(browser: Browser, user: E2eUser, userAgent: string) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await signIn(page, user, '/keys');
  return { context, page };
}

test('two browsers listed, the other one signed out from the first and sent to sign-in', async ({ signedInPage: page, user, browser }) => {
  test.setTimeout(120_000); // three sign-ins, axe in two themes, screenshots at two widths
  const laptop = await anotherBrowser(browser, user, FIREFOX_MAC);

  await page.goto('/account');
  const sessions = page.getByRole('list', { name: 'Browser sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  const thisDevice = sessions.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(thisDevice).toHaveCount(1);
  await expect(thisDevice).toContainText('Active now');
  await expect(thisDevice.getByRole('button')).toHaveCount(0); // this browser signs out from the user menu
  await expect(sessions.getByRole('listitem').filter({ hasText: 'Firefox on macOS' })).toContainText('Last active');
  await expect(page.getByRole('link', { name: 'Manage editor and CLI sessions' })).toHaveAttribute('href', '/sessions');
  await expectAccessible(page);
  await captureJourney(page, 'browser-sessions');

  await sessions.getByRole('button', { name: /^Sign out Firefox on macOS/ }).click();
  await expect(page.getByText('Session signed out')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  // The other browser: its next navigation lands on the sign-in page, and back to where it was going after.
  await laptop.page.goto('/usage');
  await laptop.page.waitForURL((url) => url.pathname === '/sign-in');
  expect(new URL(laptop.page.url()).searchParams.get('callbackUrl')).toBe('/usage');
  await expect(laptop.page.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // This one goes on.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Account settings' })).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);

  // Two more browsers, then "Sign out all other sessions".
  const phone = await anotherBrowser(browser, user, SAFARI_IPHONE);
  await signIn(laptop.page, user, '/keys');
  await page.reload();
  await expect(sessions.getByRole('listitem')).toHaveCount(3);
  await expect(sessions).toContainText('Safari on iOS');
  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign out all other sessions?' });
  await expect(confirm).toContainText('The 2 other browsers signed in as you are signed out at once.');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Sign out others' }).click();
  await expect(page.getByText('2 other sessions signed out')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Sign out all other sessions' })).toHaveCount(0);
  for (const other of [phone, laptop]) {
    await other.page.goto('/keys');
    await other.page.waitForURL((url) => url.pathname === '/sign-in');
  }
  await phone.context.close();
  await laptop.context.close();
});
