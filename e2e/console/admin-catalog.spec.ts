// Catalog editing in the operators' console (issue 17): an operator adds an OpenAI-compatible provider with a
// key (write-only: the edit form shows its hint, never the key), adds a model on it, changes its price, finds
// the new price on /models, and deletes both; a field the server refuses is named next to that field. A
// non-operator has no Operator navigation and gets the 404 page and FORBIDDEN from the procedures.
// The landing page marks a model this server cannot serve once an operator takes it away.
import { randomUUID } from 'node:crypto';
import { captureJourney, expectAccessible } from '../a11y';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { cli, expect, test } from './fixtures';

test.use({ credit: 0 });

test('an operator adds, edits and deletes a provider and a model; others are refused', async ({ page, user, browser, request, apiBaseURL, origin }) => {
  test.setTimeout(240_000);
  cli('user:admin', '--email', user.email);
  const suffix = randomUUID().slice(0, 8);
  const providerId = `e2e-up-${suffix}`;
  const modelId = `e2e/catalog-${suffix}`;
  const secret = `sk-e2e-catalog-${randomUUID()}`;

  await signInThroughUi(page, user, '/overview');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Catalog & providers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog & providers' })).toBeVisible();

  // Add provider: only the chosen type's fields; the server's refusal is shown at the field.
  await page.getByRole('button', { name: 'Add provider' }).click();
  const addProvider = page.getByRole('dialog', { name: 'Add provider' });
  await addProvider.getByLabel('Type').selectOption('bedrock');
  await expect(addProvider.getByLabel('AWS region')).toBeVisible();
  await addProvider.getByLabel('Type').selectOption('openai-compatible');
  await expect(addProvider.getByLabel('AWS region')).toHaveCount(0);
  await addProvider.getByLabel('Provider id').fill(providerId);
  await addProvider.getByLabel('Base URL').fill('not a url');
  await addProvider.getByRole('button', { name: 'Add key', exact: true }).click();
  await addProvider.getByLabel('Key', { exact: true }).fill(secret);
  await addProvider.getByRole('button', { name: 'Add provider' }).click();
  await expect(addProvider.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(addProvider.getByText('base_url must be an http(s) URL')).toBeVisible();
  await expectAccessible(page);
  await addProvider.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
  await addProvider.getByRole('button', { name: 'Add provider' }).click();
  await expect(page.getByText(`Provider ${providerId} added.`)).toBeVisible();
  const providerRow = page.getByRole('region', { name: 'Providers' }).getByRole('row', { name: new RegExp(providerId) });
  await expect(providerRow).toContainText('openai-compatible');
  await expect(providerRow).toContainText('admin');

  // Edit provider: the stored key is never shown, only its hint; saving without typing keeps it.
  await providerRow.getByRole('button', { name: `Edit provider ${providerId}` }).click();
  const editProvider = page.getByRole('dialog', { name: `Edit provider ${providerId}` });
  const stored = editProvider.getByLabel(/^Replace stored key sk-…/);
  await expect(stored).toHaveValue('');
  await expect(stored).toHaveAttribute('type', 'password');
  expect(await page.content()).not.toContain(secret);
  await editProvider.getByLabel('Display name').fill('E2E Upstream');
  await editProvider.getByRole('button', { name: 'Save provider' }).click();
  await expect(page.getByText(`Provider ${providerId} saved.`)).toBeVisible();
  await expect(providerRow).toContainText('E2E Upstream');
  await expect(providerRow).toContainText('enabled');

  // Add a model on it, priced in $/M.
  await page.getByRole('button', { name: 'Add model' }).click();
  const addModel = page.getByRole('dialog', { name: 'Add model' });
  await addModel.getByLabel('Model id').fill(modelId);
  await addModel.getByLabel('Name', { exact: true }).fill(`Catalog E2E ${suffix}`);
  await addModel.getByLabel('Context length', { exact: true }).first().fill('8000');
  await addModel.getByLabel('Max output tokens').first().fill('1000');
  const endpoint = addModel.getByRole('group', { name: 'Endpoint 1' });
  await endpoint.getByLabel('Provider').selectOption(providerId);
  await endpoint.getByLabel('Upstream model').fill('catalog-model-1');
  await endpoint.getByLabel('Input $/M').fill('0.5');
  await endpoint.getByLabel('Output $/M').fill('1.5');
  await expectAccessible(page);
  await addModel.getByRole('button', { name: 'Add model' }).click();
  await expect(page.getByText(`Model ${modelId} added.`)).toBeVisible();
  const modelRow = page.getByRole('region', { name: 'Models' }).getByRole('row', { name: new RegExp(modelId) });
  await expect(modelRow).toContainText(`${providerId} (catalog-model-1)`);
  await expectAccessible(page);
  await captureJourney(page, 'admin-catalog');

  // Edit its price.
  await modelRow.getByRole('button', { name: `Edit model ${modelId}` }).click();
  const editModel = page.getByRole('dialog', { name: `Edit model ${modelId}` });
  await expect(editModel.getByLabel('Input $/M')).toHaveValue('0.5');
  await editModel.getByLabel('Input $/M').fill('0.75');
  await editModel.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByText(`Model ${modelId} saved.`)).toBeVisible();

  // /models shows it at the new price.
  await page.goto('/models');
  await page.getByRole('searchbox', { name: 'Search models' }).fill(modelId);
  const card = page.getByRole('listitem', { name: `Catalog E2E ${suffix}` });
  await expect(card).toContainText(modelId);
  await expect(card.getByRole('definition').first()).toHaveText('$0.75');

  // Delete the model, then the provider (each confirmed).
  await page.goto('/admin/catalog');
  await page.getByRole('region', { name: 'Models' }).getByRole('button', { name: `Delete model ${modelId}` }).click();
  const confirmModel = page.getByRole('dialog', { name: 'Delete this model?' });
  await expect(confirmModel.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirmModel.getByRole('button', { name: 'Delete model' }).click();
  await expect(page.getByText(`Model ${modelId} deleted.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Models' }).getByRole('row', { name: new RegExp(modelId) })).toHaveCount(0);
  await page.getByRole('region', { name: 'Providers' }).getByRole('button', { name: `Delete provider ${providerId}` }).click();
  await page.getByRole('dialog', { name: 'Delete this provider?' }).getByRole('button', { name: 'Delete provider' }).click();
  await expect(page.getByText(`Provider ${providerId} deleted.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Providers' }).getByRole('row', { name: new RegExp(providerId) })).toHaveCount(0);
  await page.goto('/models');
  await page.getByRole('searchbox', { name: 'Search models' }).fill(modelId);
  await expect(page.getByText('No models match')).toBeVisible();

  // Each write is in the operators' audit log, by this operator, with no account.
  const audit = await page.request.get(`/api/trpc/admin.auditLog?input=${encodeURIComponent(JSON.stringify({ target_id: modelId, limit: 10 }))}`);
  expect(audit.status()).toBe(200);
  const entries = (await audit.json()).result.data.data as { action: string; account_id: string | null; actor: { label: string } }[];
  expect(entries.map((e) => e.action)).toEqual(['model.delete', 'model.update', 'model.create']);
  for (const e of entries) expect(e).toMatchObject({ account_id: null, actor: { label: user.email } });

  // A non-operator: no Operator navigation, the 404 page at /admin/catalog, FORBIDDEN from the procedures.
  const other = { email: uniqueEmail('not-operator'), password: `pw-${randomUUID()}`, name: 'Not Operator' };
  expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: other })).status()).toBe(201);
  const context = await browser.newContext({ baseURL: origin });
  const otherPage = await context.newPage();
  await signInThroughUi(otherPage, other, '/overview');
  const otherNav = otherPage.getByRole('navigation', { name: 'Console' });
  await expect(otherNav.getByRole('link', { name: 'Models' })).toBeVisible();
  await expect(otherNav.getByRole('link', { name: 'Catalog & providers' })).toHaveCount(0);
  const res = await otherPage.goto('/admin/catalog');
  expect(res?.status()).toBe(404);
  await expect(otherPage.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  const refused = await otherPage.request.post('/api/trpc/admin.createProvider', { data: { id: 'sneaky', type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toMatch(/^Operators only/);
  const list = await otherPage.request.get('/api/trpc/admin.providers');
  expect(list.status()).toBe(403);
  expect((await list.json()).error.message).toMatch(/^Operators only/);
  await context.close();
});

test('the landing page marks a model the server no longer serves, and offers it again once restored', async ({ page, user }) => {
  test.setTimeout(90_000);
  // deepseek/deepseek-chat, on the landing page, is an alias of deepseek/deepseek-v4.1-flash. The operator's
  // entry overriding the builtin without that alias takes the name away (the model itself is served as
  // before, so other specs calling it by its id are unaffected); deleting the entry restores the builtin.
  const model = 'deepseek/deepseek-v4.1-flash';
  const alias = 'deepseek/deepseek-chat';
  const card = (p: typeof page) => p.getByRole('region', { name: 'Switch providers by changing one string' }).getByRole('listitem').filter({ hasText: alias });
  await page.goto('/');
  await expect(card(page)).toHaveAttribute('data-usable', 'true');
  await expect(card(page)).not.toContainText('Not available on this server');

  cli('user:admin', '--email', user.email);
  await signInThroughUi(page, user, '/overview');
  const trpc = async (procedure: string, data: unknown) => {
    const res = await page.request.post(`/api/trpc/admin.${procedure}`, { data });
    expect(res.status(), await res.text()).toBe(200);
  };
  const listed = await page.request.get('/api/trpc/admin.models');
  expect(listed.status()).toBe(200);
  const builtin = ((await listed.json()).result.data.data as { id: string; aliases: string[]; source: string }[]).find((m) => m.id === model)!;
  expect(builtin).toMatchObject({ source: 'builtin', aliases: expect.arrayContaining([alias]) });
  await trpc('replaceModel', { id: model, entry: { ...builtin, aliases: builtin.aliases.filter((a) => a !== alias) } });
  try {
    // Not offered any more: the landing page marks it.
    await page.goto('/');
    await expect(card(page)).toHaveAttribute('data-usable', 'false');
    await expect(card(page)).toContainText('Not available on this server');
    // The example is still a model the server serves.
    await expect(page.locator('pre', { hasText: 'curl ' })).not.toContainText(alias);
  } finally {
    await trpc('deleteModel', { id: model });
  }
  await page.goto('/');
  await expect(card(page)).toHaveAttribute('data-usable', 'true');
  await expect(card(page)).not.toContainText('Not available on this server');
});

test('an operator adds a Bedrock provider that takes AWS credentials from the default chain', async ({ page, user }) => {
  test.setTimeout(120_000);
  cli('user:admin', '--email', user.email);
  const providerId = `e2e-bedrock-${randomUUID().slice(0, 8)}`;
  await signInThroughUi(page, user, '/admin/catalog');
  await page.getByRole('button', { name: 'Add provider' }).click();
  const add = page.getByRole('dialog', { name: 'Add provider' });
  await add.getByLabel('Type').selectOption('bedrock');
  await add.getByLabel('Provider id').fill(providerId);
  await add.getByLabel('AWS region').fill('us-west-2');
  await expect(add.getByLabel('AWS credentials')).toHaveValue('');
  await add.getByLabel('AWS credentials').selectOption('default');
  await add.getByRole('button', { name: 'Add provider' }).click();
  await expect(page.getByText(`Provider ${providerId} added.`)).toBeVisible();

  // Stored as aws_credentials: default (what the edit form reads back from the server), and usable without keys.
  const row = page.getByRole('region', { name: 'Providers' }).getByRole('row', { name: new RegExp(providerId) });
  await row.getByRole('button', { name: `Edit provider ${providerId}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit provider ${providerId}` });
  await expect(edit.getByLabel('AWS credentials')).toHaveValue('default');
  const listed = await page.request.get(`/api/trpc/admin.providers`);
  const provider = ((await listed.json()).result.data.data as { id: string; aws_credentials?: string; configured?: boolean }[]).find((p) => p.id === providerId);
  expect(provider).toMatchObject({ aws_credentials: 'default' });
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await row.getByRole('button', { name: `Delete provider ${providerId}` }).click();
  await page.getByRole('dialog', { name: 'Delete this provider?' }).getByRole('button', { name: 'Delete provider' }).click();
  await expect(page.getByText(`Provider ${providerId} deleted.`)).toBeVisible();
});
