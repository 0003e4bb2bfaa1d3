import { captureJourney } from './a11y';
import { expect, test } from './fixtures';

const modelIds = [
  'anthropic/claude-sonnet-4.5',
  'openai/gpt-4o-mini',
  'google/gemini-2.5-flash',
  'deepseek/deepseek-chat',
  'switchboard/echo',
];

test.describe('landing page', () => {
  test('presents the product with snippets that paste as they are', async ({ page, apiBaseURL }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Switchboard/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('One credential, many model providers');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();

    // The curl snippet targets this very server.
    const curl = page.locator('pre', { hasText: 'curl ' });
    await expect(curl).toContainText(`curl ${apiBaseURL}/chat/completions`);
    await expect(curl).toContainText('"model": "anthropic/claude-sonnet-4.5"');
    await expect(curl).toContainText('Authorization: Bearer $SWITCHBOARD_API_KEY');

    // The SDK snippets sit behind tabs; switching them is the page's one bit of interactivity.
    const panel = page.getByRole('tabpanel');
    await expect(panel).toContainText(`baseURL: "${apiBaseURL}"`);
    await page.getByRole('tab', { name: 'Python' }).click();
    await expect(page.getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
    await expect(panel).toContainText(`base_url="${apiBaseURL}"`);
    await page.getByRole('tab', { name: 'Python' }).press('ArrowLeft');
    await expect(page.getByRole('tab', { name: 'TypeScript' })).toBeFocused();
    await expect(panel).toContainText('import OpenAI from "openai"');

    const models = page.getByRole('region', { name: 'Switch providers by changing one string' });
    for (const id of modelIds) await expect(models.getByText(id, { exact: true })).toBeVisible();

    const nav = page.getByRole('navigation', { name: 'Primary' });
    await expect(nav.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    await expect(nav.getByRole('link', { name: 'Console' })).toHaveAttribute('href', '/keys');
    await expect(nav.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs');

    await captureJourney(page, 'landing');
  });

  test('fits a phone screen and has a dark scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background, 'dark body background').not.toBe('rgb(255, 255, 255)');
    await captureJourney(page, 'landing-dark');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'horizontal overflow on a phone (px)').toBeLessThanOrEqual(0);
  });

  test('unknown pages get a branded 404', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await captureJourney(page, 'not-found');
  });
});

test('GET /api/health answers JSON with status ok', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/json/);
  expect(await response.json()).toMatchObject({ status: 'ok', database: expect.any(Object) });
});
