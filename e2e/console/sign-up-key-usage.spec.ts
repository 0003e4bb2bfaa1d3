// Sign-up → create an API key in the console → call the gateway with it from the test → the request
// appears in Usage. Starts signed out at /keys, so the console's sign-in redirect is covered too.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { uniqueEmail } from '../fixtures';
import { captureJourney } from '../a11y';
import { cli, expect, test } from './fixtures';

test('a new user signs up, creates a key, uses it and sees the request in Usage', async ({ page, request, apiBaseURL }) => {
  test.setTimeout(90_000);
  await page.goto('/keys');
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fkeys$/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  const email = uniqueEmail('console');
  await page.getByLabel('Name').fill('Console Tester');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(`pw-${randomUUID()}`);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(page).toHaveURL(/\/keys$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  await expect(page.getByText('No API keys yet')).toBeVisible();

  // Create a key with a monthly limit; the secret is shown once.
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill('Backend');
  await dialog.getByLabel('Spend limit (optional)').fill('5');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Save your API key' });
  await expect(shown).toBeVisible();
  const key = await shown.getByLabel('API key', { exact: true }).inputValue();
  expect(key).toMatch(/^sk-sb-v1-/);
  await captureJourney(page, 'console-key-created');
  await shown.getByRole('button', { name: "I've saved my key" }).click();
  const row = page.getByRole('row', { name: /Backend/ });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText('of $5.00 per month');
  await expect(page.getByText(key)).toHaveCount(0);

  // Credit, then a request with the key from outside the browser.
  cli('credits:grant', '--email', email, '--amount', '5');
  const res = await request.post(`${apiBaseURL}/chat/completions`, {
    headers: { authorization: `Bearer ${key}` },
    // A priced model (echo is free), served by the fake upstream: the key's spend must move.
    data: { model: 'openai/gpt-4o-mini', stream: false, messages: [{ role: 'user', content: 'Hello from the console test' }] },
  });
  expect(res.status(), await res.text()).toBe(200);

  // Settlement is written just after the response: refresh until the row is there.
  await page.getByRole('link', { name: 'Usage' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Requests' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(table.getByRole('row', { name: /openai\/gpt-4o-mini/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const usageRow = table.getByRole('row', { name: /openai\/gpt-4o-mini/ });
  await expect(usageRow).toContainText('Backend');
  await expect(usageRow).toContainText('success');

  // Filter by the key, and export what the filters select.
  await page.getByLabel('API key', { exact: true }).selectOption({ label: `Backend (${key.slice(0, 12)}…${key.slice(-4)})` });
  await expect(usageRow).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toContain('created_at,id,model');
  expect(csv).toContain('openai/gpt-4o-mini');
  await captureJourney(page, 'console-usage');

  await page.getByRole('link', { name: 'API keys' }).first().click();
  // The key's last use and spend moved with the request.
  await expect(page.getByRole('row', { name: /Backend/ })).toContainText(/just now|minute ago/);
  await expect(page.getByRole('row', { name: /Backend/ })).not.toContainText('$0.00 of $5.00');
  await captureJourney(page, 'console-keys');
});
