// A model's providers and their health, as a user sees them: from the Models page to one model's providers,
// each with its status (from the server's key health), prices and this server's measured latency, never a
// key id or a key's error.
import { captureJourney, expectAccessible } from '../a11y';
import { expect, test } from './fixtures';

test('a user opens a model\'s providers and sees each one\'s health and measured latency', async ({ consolePage: page, request, apiBaseURL, apiKey }) => {
  test.setTimeout(90_000);
  // One request through the gateway, so the OpenAI endpoint has a latency measurement.
  const res = await request.post(`${apiBaseURL}/chat/completions`, {
    headers: { authorization: `Bearer ${apiKey.key}` },
    data: { model: 'openai/gpt-4o-mini', stream: false, messages: [{ role: 'user', content: 'Hello, routing' }] },
  });
  expect(res.status(), await res.text()).toBe(200);

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Models' }).click();
  await page.getByRole('link', { name: 'Providers and health of openai/gpt-4o-mini' }).click();
  await expect(page).toHaveURL(/\/models\/openai\/gpt-4o-mini$/);
  await expect(page.getByRole('heading', { level: 1, name: 'OpenAI: GPT-4o mini' })).toBeVisible();
  const providers = page.getByRole('region', { name: 'Providers of openai/gpt-4o-mini' });
  const openai = providers.getByRole('row', { name: /OpenAI/ }).first();
  await expect(openai).toContainText('Healthy');
  await expect(openai).toContainText(/\d+ ms|\d+(\.\d)? s/);
  // User-safe: no key references (provider/key) nor upstream keys' errors.
  await expect(providers).not.toContainText('sk-e2e');
  await expect(providers).not.toContainText('openai/key');
  await expectAccessible(page);
  await captureJourney(page, 'routing-model-providers');

  await page.goto('/models/nobody/no-such-model');
  await expect(page.getByText('Model not found')).toBeVisible();
  await expect(page.getByRole('link', { name: '← All models' })).toBeVisible();
});
