// A Teams plan's included credit lands in the organization's paid credit: Billing says where paid credit
// comes from, and that includes the plan (it said "Bought with checkout, saved card or auto top-up").
import { expect, test } from './fixtures';

test('included plan credit is paid credit, and Billing says so', async ({ consolePage: page, organization, apiKey, request, apiBaseURL }) => {
  test.setTimeout(60_000);
  const headers = { authorization: `Bearer ${apiKey.key}` };
  // A card for the organization, saved on the sandbox's page.
  const setup = await request.post(`${apiBaseURL}/organizations/${organization.id}/payment-method/setup-session`, { data: {}, headers });
  expect(setup.status(), await setup.text()).toBe(201);
  await page.goto((await setup.json()).url);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByRole('heading', { name: 'Card saved' })).toBeVisible();
  const subscribed = await request.post(`${apiBaseURL}/organizations/${organization.id}/plan`, { data: { plan_id: 'teams', seats: 2 }, headers });
  expect(subscribed.status(), await subscribed.text()).toBe(201);

  await page.goto('/overview');
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(organization.name) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(organization.name);
  await page.goto('/billing');
  await expect(page.getByTestId('balance')).toContainText('$10.00');
  await expect(page.getByRole('row', { name: /Plan credit/ })).toContainText('+$10.00');
  await expect(page.getByText('Bought, or included with a plan')).toBeVisible();
  await expect(page.getByText('Bought with checkout, saved card or auto top-up')).toHaveCount(0);
});
