// /docs on the production server: the API reference renders from /api/v1/openapi.json with the renderer
// served by this server (no CDN, nothing from another origin), under the site's Content-Security-Policy.
import { expect, test } from './fixtures';

test('the API reference at /docs renders offline under the CSP, and the site links to it', async ({ page, origin }) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) foreign.push(request.url());
  });
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto('/docs');
  expect(response?.status()).toBe(200);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByText('Create a chat completion (OpenAI-compatible)').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Switchboard API').first()).toBeVisible();
  // Every resource the page loads has been requested once 'load' fired; 'networkidle' (500 ms without a
  // request) is waited for too, but not required: in a reused browser it sometimes never comes (seen with
  // nothing pending), and what this test checks — no CSP violation, nothing from another origin — is known by then.
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(foreign).toEqual([]);

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Primary' }).getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(`${origin}/docs`);
});
