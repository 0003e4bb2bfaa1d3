// Buying credits: the console opens the sandbox checkout (the server has no Stripe), the buyer pays with a
// test card, lands back on Billing with the outcome, and the balance rises by the amount. A cancelled
// checkout says so and is listed as cancelled.
import { captureJourney } from '../a11y';
import { expect, test } from './fixtures';

test.use({ credit: 0 });

test('credits bought through the sandbox checkout raise the balance', async ({ consolePage: page }) => {
  test.setTimeout(60_000);
  // Free models (switchboard/echo) are still served at $0, so the notice does not say every request is refused.
  await expect(page.getByRole('status').filter({ hasText: 'No credit left' })).toContainText('Requests to paid models are refused (402) until credit is added; free ones still work.');
  await page.getByRole('link', { name: 'Add credits' }).click();
  await expect(page).toHaveURL(/\/billing#buy-credits$/);
  const balance = page.getByTestId('balance');
  await expect(balance).toContainText('$0.00');

  // The server's own schema refuses a too-small amount before anything is sent.
  await page.getByLabel('Amount (USD)').fill('2');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.getByText('The amount must be at least $5')).toBeVisible();
  // Not a number, or finer than a cent: said in words a buyer can act on, not zod's ("received NaN").
  await page.getByLabel('Amount (USD)').fill('abc');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.getByText('Enter an amount in US dollars, such as 25')).toBeVisible();
  await page.getByLabel('Amount (USD)').fill('10.999');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.getByText('Use at most two decimals (cents)')).toBeVisible();
  await page.getByRole('button', { name: '$25' }).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();

  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.getByRole('heading', { name: 'Buy $25.00 of credits' })).toBeVisible();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay $25.00' }).click();
  // Back in the console, on the page the checkout started from, with the outcome.
  await expect(page).toHaveURL(/\/billing\?checkout=succeeded/);
  await expect(page.getByTestId('checkout-outcome')).toContainText('$25.00 of credit was added to your balance.');
  // The card was not kept (the box was not ticked): no auto top-up offer.
  await expect(page.getByRole('button', { name: 'Turn on auto top-up' })).toHaveCount(0);

  await page.goto('/billing');
  await expect(balance).toContainText('$25.00');
  const history = page.getByRole('region', { name: 'Payments' });
  await expect(history.getByRole('row').nth(1)).toContainText('Checkout');
  await expect(history.getByRole('row').nth(1)).toContainText('succeeded');
  await expect(history.getByRole('row').nth(1)).toContainText('$25.00');
  await captureJourney(page, 'console-billing');

  // A second checkout, cancelled on the checkout page: back on Billing, "cancelled" there and in the history.
  await page.getByRole('button', { name: '$10', exact: true }).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/billing\?checkout=cancelled/);
  await expect(page.getByTestId('checkout-outcome')).toContainText('Checkout cancelled');
  await expect(history.getByRole('row').nth(1)).toContainText('cancelled');
  await expect(history.getByRole('row').nth(1)).toContainText('$10.00');

  await page.goto('/overview');
  await expect(page.getByText('No credit left')).toHaveCount(0);
  await expect(page.getByText('$25.00').first()).toBeVisible();
  await captureJourney(page, 'console-overview');
});
