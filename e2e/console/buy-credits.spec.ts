// Buying credits: the console opens the sandbox checkout (the server has no Stripe), the buyer pays with a
// test card, and the balance rises by the amount.
import { expect, screenshotVariants, test } from './fixtures';

test.use({ credit: 0 });

test('credits bought through the sandbox checkout raise the balance', async ({ consolePage: page, saveScreenshot }) => {
  test.setTimeout(60_000);
  await expect(page.getByRole('status').filter({ hasText: 'No credit left' })).toBeVisible();
  await page.getByRole('link', { name: 'Add credits' }).click();
  await expect(page).toHaveURL(/\/billing#buy-credits$/);
  const balance = page.getByTestId('balance');
  await expect(balance).toContainText('$0.00');

  // The server's own schema refuses a too-small amount before anything is sent.
  await page.getByLabel('Amount (USD)').fill('2');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.getByText('The amount must be at least $5')).toBeVisible();
  await page.getByRole('button', { name: '$25' }).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();

  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByRole('heading', { name: 'Buy $25.00 of credits' })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment received' })).toBeVisible();

  await page.goto('/billing');
  await expect(balance).toContainText('$25.00');
  const history = page.getByRole('region', { name: 'Payments' });
  await expect(history.getByRole('row').nth(1)).toContainText('Checkout');
  await expect(history.getByRole('row').nth(1)).toContainText('succeeded');
  await expect(history.getByRole('row').nth(1)).toContainText('$25.00');
  await screenshotVariants(page, 'console-billing', saveScreenshot);

  await page.goto('/overview');
  await expect(page.getByText('No credit left')).toHaveCount(0);
  await expect(page.getByText('$25.00').first()).toBeVisible();
  await screenshotVariants(page, 'console-overview', saveScreenshot);
});
