// Security headers on the production server's pages, and a Content-Security-Policy that breaks none of them:
// every page here (and in every other spec, through the `page` fixture's console check) renders, hydrates and
// runs without a single policy violation.
import { expect, test } from './fixtures';

const CONSOLE_PAGES = ['/overview', '/keys', '/usage', '/activity', '/billing', '/plans', '/organization', '/playground', '/models', '/sessions'];

test.describe('security headers', () => {
  test('every page carries them, and nothing on any page violates the policy', async ({ signedInPage: page }) => {
    test.setTimeout(120_000); // twelve pages, each until its network is idle
    await page.addInitScript(() => {
      (window as unknown as { cspViolations: string[] }).cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`);
      });
    });
    for (const path of ['/', '/sign-in', ...CONSOLE_PAGES]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const headers = response!.headers();
      expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options'], path).toBe('nosniff');
      expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      // The e2e server's PUBLIC_URL is http://: no HSTS (server/http/security-headers.test.ts covers https).
      expect(headers['strict-transport-security'], path).toBeUndefined();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), path).toEqual([]);
    }
    // Hydrated and interactive under the policy: the account menu opens.
    await page.goto('/keys');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('the console cannot be framed by another site', async ({ browser, origin }) => {
    // A page of its own: the refusal is logged as a console error, which the `page` fixture would count.
    const page = await browser.newPage();
    const refused = page.waitForEvent('console', (m) => m.text().includes("frame-ancestors 'none'"));
    await page.setContent(`<iframe id="f" src="${origin}/sign-in"></iframe>`);
    await refused;
    const frame = page.frames().find((f) => f.url().includes('/sign-in'));
    expect(frame ? await frame.locator('input[type="password"]').count() : 0).toBe(0);
    await page.close();
  });
});
