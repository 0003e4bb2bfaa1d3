// Buying credits without Stripe, end to end in Chromium against the production server: the API starts a
// checkout, the buyer pays on the sandbox's own checkout page (a declined card first, then 4242…), lands
// on the return page, and the balance has risen by the amount — once. The key comes from the CLI, which
// reaches the server's embedded database through it (as in e2e/api/providers.spec.ts).
import { captureJourney } from './a11y';
import { expect, runCli, runCliJson, test } from './fixtures';

let key = '';

test.beforeAll(() => {
  const email = `billing-${Date.now()}@example.com`;
  runCli('user:create', '--email', email, '--password', 'password123');
  key = runCliJson('key:create', '--email', email).key;
});

test('buys credits through the sandbox checkout page', async ({ page, request, apiBaseURL, origin }) => {
  const headers = { authorization: `Bearer ${key}` };
  const balance = async () => (await (await request.get(`${apiBaseURL}/users/me/balance`, { headers })).json()).balance as number;
  const before = await balance();

  const created = await request.post(`${apiBaseURL}/users/credits/checkout`, { data: { amount: 25 }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const { url, payment } = await created.json();
  expect(url).toMatch(new RegExp(`^${origin}/sandbox/checkout/cs_sandbox_`));

  await page.goto(url);
  await expect(page.getByRole('note')).toContainText('Sandbox checkout');
  await expect(page.getByRole('note')).toContainText('confirming adds credit for free');
  await expect(page.getByRole('heading', { name: 'Buy $25.00 of credits' })).toBeVisible();

  // A declined card: the page says so and nothing is credited.
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'declined' })).toContainText('declined');
  expect(await balance()).toBe(before);
  await captureJourney(page, 'billing-sandbox-declined');

  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  await page.waitForURL((u) => u.pathname === '/billing/return');
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  await expect(page.getByText('$25.00 of credit was added to your balance.')).toBeVisible();
  await captureJourney(page, 'billing-sandbox-paid');

  expect(await balance()).toBeCloseTo(before + 25, 6);
  const status = await request.get(`${apiBaseURL}/users/me/payments/${payment.id}/status`, { headers });
  expect(await status.json()).toMatchObject({ status: 'succeeded', credited: true });

  // Reloading the return page (or paying again with the back button) credits nothing more.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();
  expect(await balance()).toBeCloseTo(before + 25, 6);
});

test('saving a card on the sandbox page does not promise credit', async ({ page, request, apiBaseURL }) => {
  const headers = { authorization: `Bearer ${key}` };
  const created = await request.post(`${apiBaseURL}/users/me/payment-method/setup-session`, { data: {}, headers });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto((await created.json()).url);
  await expect(page.getByRole('heading', { name: 'Save a card for later payments' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('the card is saved, and nothing is charged or credited now');
  await expect(page.getByRole('note')).not.toContainText('adds credit');
});
