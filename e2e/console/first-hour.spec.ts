// Issue 18, "the first hour", walked as a new paying customer would: landing → "Get an API key" → sign-up →
// terms → the console (never the marketing page) → a key (focus on it) whose "try it" snippet works as
// pasted → the balance note for a model it cannot cover → buy credits with the card saved → back on the
// page they came from, where auto top-up is offered → the landing page now says "Console". Every page of
// the journey is checked with axe (both themes) and captured at 1440 and 390 px.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { captureJourney, expectAccessible } from '../a11y';
import { uniqueEmail } from '../fixtures';
import { expect, test } from './fixtures';

/** Runs the curl command of the key dialog as it is written: URL, headers and JSON body. */
function parseCurl(snippet: string): { url: string; headers: Record<string, string>; body: unknown } {
  const url = /curl (\S+)/.exec(snippet)![1]!;
  const headers: Record<string, string> = {};
  for (const [, name, value] of snippet.matchAll(/-H "([^:]+): ([^"]+)"/g)) headers[name!.toLowerCase()] = value!;
  const body = JSON.parse(/-d '([^']+)'/.exec(snippet)![1]!);
  return { url, headers, body };
}

test('the first hour: sign up, a working first request, credits with the card saved, back where they were', async ({ page, request }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-1-landing');
  await page.getByRole('link', { name: /Get an API key/ }).click();

  // Sign-up, not sign-in; then the terms; then the console's key page (where "Get an API key" aimed).
  await expect(page).toHaveURL(/\/sign-up\?callbackUrl=%2Fkeys$/);
  await expect(page.getByRole('heading', { name: 'Create your Switchboard account' })).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-2-sign-up');
  await page.getByLabel('Name').fill('First Hour');
  await page.getByLabel('Email').fill(uniqueEmail('first-hour'));
  await page.getByLabel('Password').fill(`pw-${randomUUID()}`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/terms\?callbackUrl=%2Fkeys$/);
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-3-terms');
  await page.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-4-keys');

  // A key; focus lands on it.
  await page.getByRole('button', { name: 'Create key' }).click();
  const form = page.getByRole('dialog', { name: 'Create an API key' });
  await form.getByLabel('Name').fill('First key');
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Save your API key' });
  const keyField = shown.getByLabel('API key', { exact: true });
  await expect(keyField).toBeFocused();
  const key = await keyField.inputValue();
  expect(key).toMatch(/^sk-sb-v1-/);

  // The snippet works as pasted: a model usable here that a $0 balance covers (switchboard/echo is free).
  const snippet = shown.getByRole('figure').filter({ hasText: 'Try it' });
  await expect(snippet).toContainText('switchboard/echo');
  const curl = parseCurl((await snippet.locator('pre').textContent())!);
  expect(curl.headers.authorization).toBe(`Bearer ${key}`);
  const first = await request.post(curl.url, { headers: curl.headers, data: curl.body });
  expect(first.status(), await first.text()).toBe(200);
  expect((await first.json()).choices[0].message.content).toContain('Hello!');

  // A priced model the empty balance cannot cover: the dialog says so before anything is copied.
  await shown.getByLabel('Model for the first request').selectOption('openai/gpt-4o-mini');
  await expect(shown.getByText('Your balance cannot cover this request')).toBeVisible();
  await expect(snippet).toContainText('openai/gpt-4o-mini');
  const refused = parseCurl((await snippet.locator('pre').textContent())!);
  expect((await request.post(refused.url, { headers: refused.headers, data: refused.body })).status()).toBe(402);
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-5-key-created');

  // Buy credits from the note, keeping the card; checkout returns to the key page.
  await shown.getByRole('link', { name: 'Buy credits' }).click();
  await expect(page).toHaveURL(/\/billing\?from=(%2F|\/)keys#buy-credits$/);
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-6-billing');
  await page.getByRole('button', { name: '$25' }).click();
  await page.getByLabel('Save this card for future purchases and auto top-up').check();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByText('Your card will be saved for future purchases and auto top-up')).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();

  await expect(page).toHaveURL(/\/keys\?checkout=succeeded/);
  const outcome = page.getByTestId('checkout-outcome');
  await expect(outcome).toContainText('Payment received');
  await expect(outcome).toContainText('$25.00 of credit was added');
  await expect(outcome).toContainText('4242 is saved for next time');
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-7-back-on-keys');
  await outcome.getByRole('button', { name: 'Turn on auto top-up' }).click();
  await expect(page.getByText(/Auto top-up is on: \$[\d.]+ when the balance falls below \$[\d.]+/)).toBeVisible();

  // Billing agrees: the card is the default, auto top-up is on, the checkout is in the history.
  await page.goto('/billing');
  await expect(page.getByTestId('balance')).toContainText('$25.00');
  await expect(page.getByRole('region', { name: 'Payment method' })).toContainText('4242');
  await expect(page.getByLabel('Top up automatically')).toBeChecked();

  // The marketing pages, signed in: "Console" in the header and the footer, "Sign in" nowhere (landing and 404).
  await page.goto('/');
  await expectSignedInChrome(page);
  expect((await page.goto('/no-such-page'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expectSignedInChrome(page);
});

/** The marketing header and footer of a signed-in visitor: the way in is the console, never "Sign in". */
async function expectSignedInChrome(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Console', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Console', exact: true })).toHaveAttribute('href', '/overview');
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
}

test('signing in from the landing page\'s "Sign in" link (no callbackUrl) ends in the console, not on the landing page', async ({ page, user }) => {
  await page.goto('/');
  // Signed out, the footer offers "Sign in" too (the signed-in check above must not pass vacuously).
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/sign-in');
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A new account passes the terms first (their page keeps the destination), then the console's home.
  await page.waitForURL((url) => url.pathname === '/terms');
  expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe('/overview');
  await page.getByRole('button', { name: 'Accept and continue' }).click();
  await page.waitForURL((url) => url.pathname === '/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  // Signing in again later (terms accepted): straight to the console.
  await page.context().clearCookies();
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/sign-in' && url.pathname !== '/terms');
  expect(new URL(page.url()).pathname).toBe('/overview');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test('models that cannot be used here are marked on the Models page and in the playground', async ({ consolePage: page }) => {
  test.setTimeout(90_000);
  // The e2e server configures OpenAI, Anthropic, Gemini and DeepSeek; Mistral has no key.
  await page.goto('/models');
  await expect(page.getByRole('heading', { level: 1, name: 'Models' })).toBeVisible();
  const mistral = page.getByRole('listitem', { name: /Mistral Large 3 \(unavailable\)/ });
  await expect(mistral).toContainText('Unavailable here');
  await expect(mistral).toContainText('not configured on this server');
  await expect(mistral.getByRole('link', { name: /Try in playground/ })).toHaveCount(0);
  const mini = page.getByRole('listitem').filter({ hasText: 'openai/gpt-4o-mini' }).first();
  await expect(mini).not.toContainText('Unavailable here');
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-models');

  await page.goto('/playground?model=mistralai/mistral-large-3');
  await expect(page.getByRole('option', { name: 'mistralai/mistral-large-3 (unavailable)' })).toBeDisabled();
  await expect(page.getByText(/mistralai\/mistral-large-3 cannot be used here/)).toBeVisible();
  // The message box stays on screen on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByLabel('Message')).toBeInViewport();
  await expectAccessible(page);
  await captureJourney(page, 'first-hour-playground');
});
