// Every console page, as an organization owner, passes axe (no critical or serious violation, light and dark).
// The pages are read from app/(console)/**/page.tsx, so a new page is checked without anyone adding it here;
// a page with a dynamic segment needs an example address below, and the test fails until it has one.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from '../a11y';
import { APP_DIR, pageRoutes } from './app-routes';
import { cli, expect, test } from './fixtures';

/** Example addresses of the pages whose route has a dynamic segment. */
const DYNAMIC_EXAMPLES: Record<string, string> = {
  '/models/[...id]': '/models/openai/gpt-4o-mini',
};

async function switchTo(page: Page, account: string) {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(account) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(account);
}

test('every console page has no critical or serious accessibility violation', async ({ consolePage: page, organization }) => {
  // The operator's pages (/admin/…) answer 404 to this organization owner; e2e/console/operator.spec.ts signs in
  // as an operator and runs the same check on each of them (found the same way).
  const routes = pageRoutes(path.join(APP_DIR, '(console)')).filter((r) => r !== '/admin' && !r.startsWith('/admin/'));
  expect(routes.length).toBeGreaterThan(10);
  const unmapped = routes.filter((r) => r.includes('[') && !DYNAMIC_EXAMPLES[r]);
  expect(unmapped, 'console pages with a dynamic segment need an example address in DYNAMIC_EXAMPLES').toEqual([]);
  test.setTimeout(30_000 + routes.length * 20_000);

  cli('credits:grant', '--org', organization.id, '--amount', '5');
  await switchTo(page, organization.name);
  for (const route of routes) {
    const address = DYNAMIC_EXAMPLES[route] ?? route;
    await test.step(address, async () => {
      await page.goto(address);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // Let every query settle: loading blocks are skeletons that pulse.
      await expect(page.locator('main .animate-pulse')).toHaveCount(0);
      await expectAccessible(page);
    });
  }
});
