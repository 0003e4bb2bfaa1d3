// Editing a key in the console (name, limits, rate limits), disabling it (the next request is 403) and
// enabling it again (200), and rotating it with a grace period: the new key is shown once and focused, both
// secrets work during the grace period, and a second rotation with "revoke now" refuses the replaced one.
// Its expiry (a past date refused at the field, a future one shown in the list and returned by the API) and
// its allowed models (a model outside them is refused with 403 through the API, then every model works again).
import { expectAccessible, captureJourney } from '../a11y';
import { expect, test } from './fixtures';

test('edit, disable, enable and rotate a key from the console', async ({ consolePage: page, apiKey, request, apiBaseURL }) => {
  test.setTimeout(180_000); // a long journey, with axe twice in two themes and screenshots at two widths
  const call = (key: string) =>
    request.post(`${apiBaseURL}/chat/completions`, {
      headers: { authorization: `Bearer ${key}` },
      data: { model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'hello' }] },
    });
  expect((await call(apiKey.key)).status()).toBe(200);

  await page.goto('/keys');
  let row = page.getByRole('row', { name: new RegExp(apiKey.name) });
  await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
  let dialog = page.getByRole('dialog', { name: 'Edit API key' });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await dialog.getByLabel('Name').fill('Renamed key');
  await dialog.getByLabel('Spend limit').fill('5');
  await dialog.getByLabel('Limit resets').selectOption('daily');
  await dialog.getByLabel('Requests per minute').fill('120');
  await expectAccessible(page);
  await captureJourney(page, 'keys-edit-dialog');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Key updated.')).toBeVisible();
  row = page.getByRole('row', { name: /Renamed key/ });
  await expect(row).toContainText('of $5.00 per day');

  // Disable: the very next request is refused with 403.
  await row.getByRole('button', { name: 'Edit key Renamed key' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit API key' });
  await dialog.getByLabel('Enabled').uncheck();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Key disabled.')).toBeVisible();
  await expect(row).toContainText('Disabled');
  const refused = await call(apiKey.key);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.metadata.reason).toBe('key_disabled');

  // Enable again: 200.
  await row.getByRole('button', { name: 'Edit key Renamed key' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit API key' });
  await dialog.getByLabel('Enabled').check();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Key enabled.')).toBeVisible();
  await expect(row).not.toContainText('Disabled');
  expect((await call(apiKey.key)).status()).toBe(200);

  // Rotate with a one-hour grace period: the new key is shown once, focused; both secrets work.
  await row.getByRole('button', { name: 'Rotate key Renamed key' }).click();
  dialog = page.getByRole('dialog', { name: 'Rotate API key' });
  await dialog.getByLabel('The old key').selectOption({ label: 'Keep it working for 1 hour' });
  await dialog.getByRole('button', { name: 'Rotate key' }).click();
  dialog = page.getByRole('dialog', { name: 'Save your new API key' });
  const secret = dialog.getByLabel('API key', { exact: true });
  await expect(secret).toBeFocused();
  const rotatedKey = await secret.inputValue();
  expect(rotatedKey).toMatch(/^sk-sb-v1-/);
  await expect(dialog).toContainText('keeps working until');
  await expectAccessible(page);
  await captureJourney(page, 'keys-rotated');
  await dialog.getByRole('button', { name: "I've saved my key" }).click();
  await expect(row).toContainText('Old key');
  expect((await call(apiKey.key)).status()).toBe(200);
  expect((await call(rotatedKey)).status()).toBe(200);

  // Rotate again, revoking at once: the key it replaces is refused on the next request.
  await row.getByRole('button', { name: 'Rotate key Renamed key' }).click();
  await page.getByRole('dialog', { name: 'Rotate API key' }).getByRole('button', { name: 'Rotate key' }).click();
  dialog = page.getByRole('dialog', { name: 'Save your new API key' });
  const newest = await dialog.getByLabel('API key', { exact: true }).inputValue();
  await expect(dialog).toContainText('The old key no longer works');
  await dialog.getByRole('button', { name: "I've saved my key" }).click();
  expect((await call(rotatedKey)).status()).toBe(401);
  expect((await call(apiKey.key)).status()).toBe(401);
  expect((await call(newest)).status()).toBe(200);
  await expect(page.getByText('No API keys yet')).toHaveCount(0);
  await captureJourney(page, 'keys-list-after-rotation');
});

test('after a key is created, focus moves to the new key', async ({ consolePage: page }) => {
  await page.goto('/keys');
  await page.getByRole('button', { name: 'Create key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create an API key' });
  await form.getByLabel('Name').fill('Focus check');
  await form.getByRole('button', { name: 'Create key' }).click();
  const saved = page.getByRole('dialog', { name: 'Save your API key' });
  await expect(saved.getByLabel('API key', { exact: true })).toBeFocused();
  await expect(saved.getByLabel('API key', { exact: true })).toHaveValue(/^sk-sb-v1-/);
});

// West of UTC, where the end of the picked day is already the next day in UTC: the dialog must still show the picked day.
test.describe('in New York', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('edit a key\'s expiry and allowed models; each is applied', async ({ consolePage: page, apiKey, request, apiBaseURL }) => {
    test.setTimeout(90_000);
    const call = (model: string) =>
      request.post(`${apiBaseURL}/chat/completions`, { headers: { authorization: `Bearer ${apiKey.key}` }, data: { model, stream: false, messages: [{ role: 'user', content: 'hello' }] } });
    expect((await call('openai/gpt-4o-mini')).status()).toBe(200);
    // YYYY-MM-DD of a day `days` from today, in this machine's zone (the browser's, which reads the date field).
    const day = (days: number) => {
      const d = new Date();
      d.setDate(d.getDate() + days);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    const shown = (ymd: string) => new Date(`${ymd}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

    await page.goto('/keys');
    const row = page.getByRole('row', { name: new RegExp(apiKey.name) });
    await expect(row).toContainText('Never');
    await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit API key' });
    // A past date is refused, and said at the field.
    await dialog.getByLabel('Expires on').fill(day(-2));
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByLabel('Expires on')).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('Must be in the future')).toBeVisible();
    // A future date and one allowed model.
    const expiry = day(30);
    await dialog.getByLabel('Expires on').fill(expiry);
    await dialog.getByLabel('Allowed models').fill('switchboard/echo');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Key updated.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(shown(expiry));
    await expect(row).toContainText('switchboard/echo');

    // Applied: the API returns the expiry; the allowed model works, any other is refused with 403.
    const current = await request.get(`${apiBaseURL}/api-keys`, { headers: { authorization: `Bearer ${apiKey.key}` } });
    expect(current.status(), await current.text()).toBe(200);
    const listed = ((await current.json()).data as { id: string; expires_at: string | null; allowed_models: string[] }[]).find((k) => k.id === apiKey.id)!;
    expect(listed.allowed_models).toEqual(['switchboard/echo']);
    // The end of the picked day in the browser's zone.
    expect(new Date(listed.expires_at!).toLocaleString('en-CA', { timeZone: 'America/New_York', hour12: false })).toBe(`${expiry}, 23:59:59`);
    expect((await call('switchboard/echo')).status()).toBe(200);
    const refused = await call('openai/gpt-4o-mini');
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error.message).toContain('This API key may not use openai/gpt-4o-mini');

    // Cleared again: every model, and no expiry.
    await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
    await expect(dialog.getByLabel('Expires on')).toHaveValue(expiry);
    await expect(dialog.getByLabel('Allowed models')).toHaveValue('switchboard/echo');
    await dialog.getByLabel('Expires on').fill('');
    await dialog.getByLabel('Allowed models').fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Key updated.').first()).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(row).not.toContainText(shown(expiry));
    await expect(row).toContainText('Never');
    expect((await call('openai/gpt-4o-mini')).status()).toBe(200);
  });
});

test('a typo in a limit is refused at the field, not saved as "no limit"', async ({ consolePage: page, apiKey }) => {
  await page.goto('/keys');
  const row = page.getByRole('row', { name: new RegExp(apiKey.name) });
  await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
  let dialog = page.getByRole('dialog', { name: 'Edit API key' });
  await dialog.getByLabel('Spend limit').fill('5');
  await dialog.getByLabel('Requests per minute').fill('60');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(row).toContainText('of $5.00 in total');

  await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
  dialog = page.getByRole('dialog', { name: 'Edit API key' });
  await dialog.getByLabel('Spend limit').fill('7.5O'); // the letter O for a zero
  await dialog.getByLabel('Requests per minute').fill('6o');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Enter an amount in US dollars, or leave it empty for no limit')).toBeVisible();
  await expect(dialog.getByText('Enter a whole number, or leave it empty for the server default')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('of $5.00 in total');
  await row.getByRole('button', { name: `Edit key ${apiKey.name}` }).click();
  await expect(page.getByRole('dialog', { name: 'Edit API key' }).getByLabel('Requests per minute')).toHaveValue('60');
});
