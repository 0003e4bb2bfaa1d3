// An organization owner's administration pages, each used end to end through the UI: the policy (a model
// left out of the allow list is refused with 403 organization_policy through the API) and member limits,
// provider keys (masked, deleted), a webhook (secret shown once, a delivery to a local receiver in the log),
// the audit log listing those changes and filtering them, and single sign-on (issuer saved, domain verified
// by its DNS TXT record). Every page passes axe in both themes and is captured at 1440 and 390 px.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startFakeOidcIssuer } from '../../test/fake-oidc-issuer';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { captureJourney, expectAccessible } from '../a11y';
import { cli, expect, switchAccount, test } from './fixtures';

async function publishTxt(name: string, values: string[]): Promise<void> {
  const control = process.env.E2E_FAKE_DNS_URL;
  if (!control) throw new Error('E2E_FAKE_DNS_URL is not set: run through `npm run test:e2e`, which starts the fake DNS server');
  const res = await fetch(`${control}/txt/${name}`, { method: 'PUT', body: JSON.stringify(values) });
  expect(res.status).toBe(204);
}

test('an owner sets the policy and limits, provider keys, a webhook, reads the audit log and sets up SSO', async ({ consolePage: page, organization, fundedUser, request, apiBaseURL, origin }) => {
  test.setTimeout(180_000);
  cli('credits:grant', '--org', organization.id, '--amount', '20');
  const orgKey = cli('key:create', '--email', fundedUser.email, '--org', organization.id, '--name', 'Org key').key as string;
  await switchAccount(page, organization.name);
  const nav = page.getByRole('navigation', { name: 'Console' });

  // ── Policy: allow one model; another is refused through the API ──
  await nav.getByRole('link', { name: 'Policy & limits' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Policy & limits' })).toBeVisible();
  const models = page.getByRole('region', { name: 'Allowed models' });
  await models.getByLabel('Only allow specific models').check();
  await models.getByLabel('openai/gpt-4o-mini', { exact: true }).check();
  await models.getByRole('button', { name: 'Save' }).click();
  await expect(models.getByText('1 allowed')).toBeVisible();
  const chat = (model: string) =>
    request.post(`${apiBaseURL}/chat/completions`, { headers: { authorization: `Bearer ${orgKey}` }, data: { model, stream: false, messages: [{ role: 'user', content: 'policy?' }] } });
  const refused = await chat('anthropic/claude-haiku-4.5');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.metadata).toMatchObject({ reason: 'organization_policy', allowed_models: ['openai/gpt-4o-mini'] });
  expect((await chat('openai/gpt-4o-mini')).status()).toBe(200);

  // The console marks the model the policy leaves out, with the policy as the reason: on /models, and in the
  // playground's picker (offered as unavailable; explained when a link asks for it).
  await nav.getByRole('link', { name: 'Models' }).click();
  const search = page.getByRole('searchbox', { name: 'Search models' });
  await search.fill('anthropic/claude-haiku-4.5');
  const haiku = page.getByRole('listitem', { name: 'Anthropic: Claude Haiku 4.5 (unavailable)' });
  await expect(haiku).toContainText('Unavailable here');
  await expect(haiku).toContainText("Not allowed by your organization's model policy.");
  await search.fill('openai/gpt-4o-mini');
  const allowed = page.getByRole('listitem', { name: 'OpenAI: GPT-4o mini', exact: true });
  await expect(allowed).toBeVisible();
  await expect(allowed).not.toContainText('Unavailable here');
  await page.goto('/playground?model=anthropic/claude-haiku-4.5');
  await expect(page.getByRole('option', { name: 'anthropic/claude-haiku-4.5 (unavailable)' })).toBeDisabled();
  await expect(page.getByRole('option', { name: 'openai/gpt-4o-mini', exact: true })).toBeEnabled();
  await expect(page.getByRole('status').filter({ hasText: 'anthropic/claude-haiku-4.5 cannot be used here' })).toContainText("Not allowed by your organization's model policy.");
  await nav.getByRole('link', { name: 'Policy & limits' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Policy & limits' })).toBeVisible();

  // A limit for the owner themself, shown in the members' table; an invalid amount is explained on the field.
  const limits = page.getByRole('region', { name: 'Member limits' });
  await limits.getByRole('button', { name: `Set limit for ${fundedUser.name}` }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`Spend limit for ${fundedUser.name}`) });
  await dialog.getByLabel('Limit', { exact: true }).fill('-3');
  await dialog.getByRole('button', { name: 'Save limit' }).click();
  await expect(dialog.getByText('Enter an amount in USD')).toBeVisible();
  await dialog.getByLabel('Limit', { exact: true }).fill('25');
  await dialog.getByLabel('Resets').selectOption('monthly');
  await dialog.getByRole('button', { name: 'Save limit' }).click();
  await expect(dialog).toBeHidden();
  await expect(limits.getByRole('row', { name: new RegExp(fundedUser.name) })).toContainText('$25.00 per month');
  await expectAccessible(page);
  await captureJourney(page, 'organization-policy');

  // ── Provider keys: added, shown masked, deleted ──
  await nav.getByRole('link', { name: 'Provider keys' }).click();
  await expect(page.getByText('No provider keys')).toBeVisible();
  await page.getByRole('button', { name: 'Add key' }).click();
  const secretKey = `sk-own-${randomUUID().replace(/-/g, '')}`;
  const addKey = page.getByRole('dialog', { name: 'Add a provider key' });
  await addKey.getByLabel('Provider').selectOption('openai');
  await addKey.getByLabel('API key').fill(secretKey);
  await addKey.getByRole('button', { name: 'Save key' }).click();
  await expect(addKey).toBeHidden();
  const keyRow = page.getByRole('region', { name: 'Provider keys' }).getByRole('row', { name: /openai/ });
  await expect(keyRow).toBeVisible();
  await expect(keyRow).toContainText(secretKey.slice(-4));
  await expect(page.getByText(secretKey)).toHaveCount(0);
  await expectAccessible(page);
  await captureJourney(page, 'organization-provider-keys');
  await keyRow.getByRole('button', { name: 'Delete key for openai' }).click();
  await page.getByRole('dialog', { name: 'Delete the key for openai?' }).getByRole('button', { name: 'Delete key' }).click();
  await expect(page.getByText('No provider keys')).toBeVisible();

  // ── Webhooks: the secret once, then a signed delivery in the log ──
  const receiver = await startWebhookReceiver();
  try {
    const hookPath = receiver.path('admin');
    await nav.getByRole('link', { name: 'Webhooks & alerts' }).click();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const addHook = page.getByRole('dialog', { name: 'Add a webhook' });
    await addHook.getByRole('button', { name: 'Add webhook' }).click();
    await expect(addHook.getByText('Enter the URL events should go to')).toBeVisible();
    await expect(addHook.getByText('Choose at least one event')).toBeVisible();
    await addHook.getByLabel('Endpoint URL').fill(`${receiver.origin}${hookPath}`);
    await addHook.getByLabel('key.created').check();
    await addHook.getByRole('button', { name: 'Add webhook' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Save the signing secret' });
    const secret = await secretDialog.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.setSecret(hookPath, secret);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(page.locator(`input[value="${secret}"]`)).toHaveCount(0);

    cli('key:create', '--email', fundedUser.email, '--org', organization.id, '--name', 'Hook trigger');
    await receiver.waitFor((all) => all.some((r) => r.path === hookPath && r.payload?.type === 'key.created'), 30_000);
    const log = page.getByRole('region', { name: 'Deliveries' });
    await expect(log.getByRole('row', { name: /key\.created/ })).toContainText('succeeded', { timeout: 20_000 });
    await expectAccessible(page);
    await captureJourney(page, 'organization-webhooks');
  } finally {
    await receiver.close();
  }

  // ── Audit log: the changes above, then only the provider keys' ──
  await nav.getByRole('link', { name: 'Audit log' }).click();
  const entries = page.getByRole('list', { name: 'Audit entries' });
  for (const action of ['organization.update', 'member.limit_update', 'provider_key.set', 'provider_key.delete', 'webhook.create']) {
    await expect(entries.getByText(action, { exact: true }).first()).toBeVisible();
  }
  await page.getByLabel('Action').selectOption('provider_key.');
  await expect(entries.getByText('webhook.create', { exact: true })).toHaveCount(0);
  await expect(entries.getByRole('listitem')).toHaveCount(2);
  await expect(entries.getByText('provider_key.set', { exact: true })).toBeVisible();
  // The export holds the filtered entries, in the REST export's columns.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync((await (await download).path())!, 'utf8').trim().split('\r\n');
  expect(csv[0]).toMatch(/^created_at,id,action,actor_kind,/);
  expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(['provider_key.delete', 'provider_key.set']);
  await expectAccessible(page);
  await captureJourney(page, 'organization-audit-log');

  // ── Single sign-on: the issuer saved, the domain verified by DNS ──
  const domain = `acme-${randomUUID().slice(0, 8)}.test`;
  const idp = await startFakeOidcIssuer({ redirectUris: [`${origin}/api/auth/callback/sso-${organization.id}`], accounts: [] });
  try {
    await nav.getByRole('link', { name: 'Single sign-on' }).click();
    await expect(page.getByText('Not set up')).toBeVisible();
    await page.getByRole('button', { name: 'Set up single sign-on' }).click();
    await expect(page.getByText('Enter the issuer URL')).toBeVisible();
    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Email domains').fill(domain);
    await page.getByRole('button', { name: 'Set up single sign-on' }).click();
    await expect(page.getByText('Waiting for domain verification')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(`${origin}/api/auth/callback/sso-${organization.id}`);
    const domains = page.getByRole('region', { name: 'Domains' });
    await expect(domains.getByText(`_switchboard.${domain}`)).toBeVisible();
    const value = (await domains.locator('code').nth(1).textContent())!;
    expect(value).toMatch(/^switchboard-verification=/);
    await expectAccessible(page);
    await captureJourney(page, 'organization-sso');
    await publishTxt(`_switchboard.${domain}`, [value]);
    await domains.getByRole('button', { name: 'Check DNS now' }).click();
    await expect(domains.getByText(/^Verified/)).toBeVisible();
    await expect(page.getByText('Active on 1 domain')).toBeVisible();
  } finally {
    await idp.close();
  }
});
