// The pages outside the console pass axe too (no critical or serious violation, light and dark), each in the
// state a visitor really meets: the first sign-in form (and its error), SSO sign-in, device approval (the code
// form and a pending code), an editor's authorize page (valid query), a real invite (signed out, then the
// invitee's Accept), a real sandbox checkout (and a declined card), the checkout return page, and the 404 page
// signed out and in. The pages are read from app/**/page.tsx: one outside app/(console) that no spec checks
// fails the first test until it is added here (or to CHECKED_ELSEWHERE).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expectAccessible } from '../a11y';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { APP_DIR, pageRoutes } from './app-routes';
import { cli, expect, test } from './fixtures';

/** The routes the tests below check. */
const CHECKED_HERE = ['/sign-in', '/sign-in/sso', '/device', '/authorize', '/invite/[token]', '/sandbox/checkout/[id]', '/billing/return'];
/** Routes another spec runs axe on, and where. */
const CHECKED_ELSEWHERE: Record<string, string> = {
  '/': 'first-hour.spec.ts',
  '/sign-up': 'first-hour.spec.ts',
  '/terms': 'first-hour.spec.ts',
};

test('every page outside the console is checked by an accessibility test', () => {
  const consoleRoutes = new Set(pageRoutes(path.join(APP_DIR, '(console)')));
  const outside = pageRoutes().filter((route) => !consoleRoutes.has(route));
  expect(outside).toContain('/sign-in');
  const unchecked = outside.filter((route) => !CHECKED_HERE.includes(route) && !CHECKED_ELSEWHERE[route]);
  expect(unchecked, 'pages outside app/(console) that no accessibility test visits').toEqual([]);
});

test('signed out: the sign-in form, SSO sign-in and the 404 page', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Switchboard' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expectAccessible(page);
  // The same form after a refused password: the alert above the fields.
  await page.getByLabel('Email').fill(uniqueEmail('nobody'));
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('That email and password do not match an account.')).toBeVisible();
  await expectAccessible(page);

  await page.goto('/sign-in/sso');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in with SSO' })).toBeVisible();
  await expectAccessible(page);

  expect((await page.goto('/no-such-page'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expectAccessible(page);
});

test('signed in: an invite, device approval, authorize, a sandbox checkout, its return page and the 404 page', async ({ page, organization, apiKey, request, apiBaseURL }) => {
  test.setTimeout(180_000);
  // A real invite to the organization, for a person who has an account.
  const invitee = { email: uniqueEmail('a11y-invitee'), password: `pw-${randomUUID()}`, name: 'Invited Person' };
  expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: invitee })).status()).toBe(201);
  const invited = await request.post(`${apiBaseURL}/organizations/${organization.id}/invites`, { headers: { authorization: `Bearer ${apiKey.key}` }, data: { emails: [invitee.email] } });
  expect(invited.status(), await invited.text()).toBe(200);
  const invitePath = new URL((await invited.json()).data[0].link).pathname;

  // The invite signed out (sign in or create an account), then signed in as the invitee (Accept).
  await page.goto(invitePath);
  await expect(page.getByRole('heading', { level: 1, name: `Join ${organization.name}` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
  await expectAccessible(page);
  await signInThroughUi(page, invitee, invitePath);
  await expect(page.getByRole('button', { name: 'Accept invite' })).toBeVisible();
  await expectAccessible(page);

  // Device approval: the code form, then a CLI's pending code.
  await page.goto('/device');
  await expect(page.getByLabel('Device code')).toBeVisible();
  await expectAccessible(page);
  const code = await (await request.post(`${apiBaseURL}/auth/device/code`, { data: { client_name: 'A11y CLI', client_kind: 'cli' } })).json();
  await page.goto(`/device?user_code=${code.user_code}`);
  await expect(page.getByTestId('user-code')).toHaveText(code.user_code);
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expectAccessible(page);

  // An editor's sign-in to a loopback address (nothing needs to listen there: the page is not approved).
  await page.goto(`/authorize?${new URLSearchParams({ redirect_uri: 'http://127.0.0.1:9/callback', state: 'a11y-state', client_name: 'A11y Editor' })}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to A11y Editor' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expectAccessible(page);

  // A sandbox checkout started through the API (so its return page speaks for itself): declined, then paid.
  const key = cli('key:create', '--email', invitee.email, '--name', 'a11y key').key as string;
  const checkout = await request.post(`${apiBaseURL}/users/credits/checkout`, { data: { amount: 10 }, headers: { authorization: `Bearer ${key}` } });
  expect(checkout.status(), await checkout.text()).toBe(201);
  await page.goto((await checkout.json()).url);
  await expect(page.getByRole('heading', { level: 1, name: 'Buy $10.00 of credits' })).toBeVisible();
  await expectAccessible(page);
  const pay = async (card: string) => {
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $10.00' }).click();
  };
  await pay('4000 0000 0000 0002');
  await expect(page.getByRole('alert').filter({ hasText: 'declined' })).toBeVisible();
  await expectAccessible(page);
  await pay('4242 4242 4242 4242');
  await page.waitForURL((url) => url.pathname === '/billing/return');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expectAccessible(page);

  expect((await page.goto('/no-such-page'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expectAccessible(page);
});
