// Deleting a key in the console takes effect on the very next gateway request.
import { expect, test } from './fixtures';

test('after a key is deleted in the console, the next gateway call with it is 401', async ({ consolePage: page, apiKey, request, apiBaseURL }) => {
  const call = () =>
    request.post(`${apiBaseURL}/chat/completions`, {
      headers: { authorization: `Bearer ${apiKey.key}` },
      data: { model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'still there?' }] },
    });
  expect((await call()).status()).toBe(200);

  await page.goto('/keys');
  const row = page.getByRole('row', { name: new RegExp(apiKey.name) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Delete key ${apiKey.name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this API key?' });
  await expect(confirm).toContainText('stops working immediately');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('Key deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('No API keys yet')).toBeVisible();

  const after = await call();
  expect(after.status()).toBe(401);
  expect((await after.json()).error.message).toBe('Invalid API key');
});
