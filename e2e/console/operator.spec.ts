// The operators' console (issue 17): an operator (made with `npm run cli -- user:admin`) finds a user, credits
// their account (the balance and the ledger show it), suspends them (their API key gets 403 on the next chat
// request) and restores them (200 again), then reads usage & margin, provider health and the audit log. A
// non-operator sees no Operator group and is refused at /admin URLs and by the admin API.
import { randomUUID } from 'node:crypto';
import { captureJourney, expectAccessible } from '../a11y';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { adminRoutes } from './app-routes';
import { cli, expect, test } from './fixtures';

test.use({ credit: 0 });

// Every operator page (each app/**/admin/**/page.tsx, so a new one is picked up without being listed here)
// passes axe in both themes. A page with a dynamic segment needs an example address; the test fails until it has one.
test('every operator page has no critical or serious accessibility violation', async ({ page, user }) => {
  const examples: Record<string, string> = { '/admin/users/[id]': `/admin/users/${user.id}` };
  const routes = adminRoutes();
  expect(routes).toContain('/admin/users');
  const unmapped = routes.filter((r) => r.includes('[') && !examples[r]);
  expect(unmapped, 'operator pages with a dynamic segment need an example address').toEqual([]);
  test.setTimeout(30_000 + routes.length * 20_000);
  cli('user:admin', '--email', user.email);
  await signInThroughUi(page, user, '/overview');
  for (const route of routes) {
    const address = examples[route] ?? route;
    await test.step(address, async () => {
      await page.goto(address);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.locator('main .animate-pulse')).toHaveCount(0); // every query settled
      await expectAccessible(page);
    });
  }
});

test('an operator adjusts credit, suspends and restores a user, and reads usage, health and the audit log; others are refused', async ({ page, user, browser, request, apiBaseURL, origin }) => {
  test.setTimeout(240_000);
  cli('user:admin', '--email', user.email);

  // The user the operator will look after: credit and an API key, through the CLI.
  const target = { email: uniqueEmail('target'), password: `pw-${randomUUID()}`, name: 'Target User' };
  expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: target })).status()).toBe(201);
  cli('credits:grant', '--email', target.email, '--amount', '3');
  const targetKey: string = cli('key:create', '--email', target.email, '--name', 'target key').key;
  const chat = () =>
    request.post(`${apiBaseURL}/chat/completions`, {
      headers: { authorization: `Bearer ${targetKey}` },
      data: { model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'hello operator' }] },
    });
  expect((await chat()).status()).toBe(200);

  await signInThroughUi(page, user, '/overview');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Users & accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users & accounts' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Email or name' }).fill(target.email.split('@')[0].toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row', { name: new RegExp(target.email) });
  await expect(row).toContainText('$3.00');
  await expect(page.getByRole('region', { name: 'Users' }).getByRole('row')).toHaveCount(2); // header + the one match
  await expectAccessible(page);
  await captureJourney(page, 'admin-users');

  // Credit adjustment: reviewed, confirmed, then in the balance and the ledger.
  await row.getByRole('link', { name: target.email }).click();
  await expect(page.getByRole('heading', { level: 1, name: target.email })).toBeVisible();
  const personal = page.getByRole('region', { name: 'Personal account', exact: true });
  await expect(personal.getByText('$3.00').first()).toBeVisible();
  await personal.getByRole('button', { name: 'Adjust credit' }).click();
  const adjust = page.getByRole('dialog', { name: 'Adjust credit' });
  await adjust.getByLabel('Amount (USD)').fill('2.5');
  await adjust.getByRole('button', { name: 'Review' }).click();
  await expect(adjust.getByText('Say why: it is kept in the ledger entry and the audit log')).toBeVisible(); // a reason is required
  await adjust.getByLabel('Reason').fill('Refund of failed requests (e2e)');
  await adjust.getByRole('button', { name: 'Review' }).click();
  await expect(adjust).toContainText('Credit $2.50');
  await expect(adjust).toContainText('Reason: Refund of failed requests (e2e)');
  await expectAccessible(page);
  await adjust.getByRole('button', { name: 'Confirm credit' }).click();
  await expect(page.getByText('Credited $2.50. Balance now')).toBeVisible();
  const ledger = personal.getByRole('region', { name: 'Ledger entries of the personal account' });
  const entry = ledger.getByRole('row').filter({ hasText: 'Refund of failed requests (e2e)' });
  await expect(entry).toContainText('adjustment');
  await expect(entry).toContainText('$2.50');
  await expect(personal.getByRole('definition').filter({ hasText: /^\$5\.50$/ }).first()).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'admin-user');

  // Suspend: the target's key is refused on the next request; restore: accepted again.
  await page.getByRole('button', { name: 'Suspend user' }).click();
  const suspend = page.getByRole('dialog', { name: 'Suspend this user?' });
  await suspend.getByLabel('Reason').fill('Chargeback review (e2e)');
  await suspend.getByRole('button', { name: 'Suspend user' }).click();
  await expect(page.getByText(/Suspended .*Chargeback review \(e2e\)/)).toBeVisible();
  const refused = await chat();
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.metadata).toMatchObject({ reason: 'user_suspended' });
  await page.getByRole('button', { name: 'Restore user' }).click();
  await page.getByRole('dialog', { name: 'Restore this user?' }).getByRole('button', { name: 'Restore user' }).click();
  await expect(page.getByRole('button', { name: 'Suspend user' })).toBeVisible();
  expect((await chat()).status()).toBe(200);

  // Usage & margin across every account.
  await nav.getByRole('link', { name: 'Usage & margin' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage & margin' })).toBeVisible();
  for (const label of ['Charged', 'Provider cost', 'Margin']) await expect(page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Usage by model' }).getByRole('row', { name: /switchboard\/echo/ })).toBeVisible();
  await page.getByLabel('Group by').selectOption('provider');
  await expect(page.getByRole('region', { name: 'Usage by provider' })).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'admin-usage');

  // Catalog & providers with the runtime's key health.
  await nav.getByRole('link', { name: 'Catalog & providers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog & providers' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Provider key health' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Models' }).getByRole('row', { name: /switchboard\/echo/ })).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'admin-catalog-health'); // admin-catalog.spec.ts captures 'admin-catalog' (editing)

  // The audit log of every account shows the operator's work.
  await nav.getByRole('link', { name: 'Instance audit log' }).click();
  await page.getByLabel('Action').fill('user.');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const entries = page.getByRole('region', { name: 'Audit log entries' });
  await expect(entries.getByRole('row', { name: /user\.suspend/ }).first()).toContainText('Chargeback review (e2e)');
  await expect(entries.getByRole('row', { name: /user\.restore/ }).first()).toBeVisible();
  await page.getByLabel('Action').fill('account.adjustment');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(entries.getByRole('row', { name: /account\.adjustment/ }).first()).toContainText('Refund of failed requests (e2e)');
  await expectAccessible(page);
  await captureJourney(page, 'admin-audit-log');

  // A non-operator: no Operator group, a 404 page at /admin URLs, 403 from the admin API and tRPC.
  const context = await browser.newContext({ baseURL: origin });
  const other = await context.newPage();
  await signInThroughUi(other, target, '/overview');
  const otherNav = other.getByRole('navigation', { name: 'Console' });
  await expect(otherNav.getByRole('link', { name: 'Usage' })).toBeVisible();
  await expect(otherNav.getByText('Operator')).toHaveCount(0);
  await expect(otherNav.getByRole('link', { name: 'Users & accounts' })).toHaveCount(0);
  for (const path of ['/admin/users', '/admin/usage', `/admin/users/${user.id}`]) {
    const res = await other.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(other.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  }
  const trpc = await other.request.get(`/api/trpc/admin.users?input=${encodeURIComponent(JSON.stringify({}))}`);
  expect(trpc.status()).toBe(403);
  const rest = await request.get(`${apiBaseURL}/admin/users`, { headers: { authorization: `Bearer ${targetKey}` } });
  expect(rest.status()).toBe(403);
  expect((await rest.json()).error.message).toMatch(/^Operators only/);
  await context.close();
});
