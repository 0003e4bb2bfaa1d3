// Seeing what happened: a served request, one refused for credit (402) and one no provider could take (503)
// all appear in Activity; one opens to its full record; the status filter and the CSV export; the credit
// history shows the grant and the day's usage with the running balance; the Usage charts' axis labels.
import { readFileSync } from 'node:fs';
import { captureJourney, expectAccessible } from '../a11y';
import { expect, test } from './fixtures';

test('Activity shows served, refused and failed requests; credit history and chart labels', async ({ consolePage: page, request, apiBaseURL, apiKey }) => {
  test.setTimeout(120_000);
  const chat = (key: string, model: string) =>
    request.post(`${apiBaseURL}/chat/completions`, {
      headers: { authorization: `Bearer ${key}`, 'x-title': 'E2E Activity' },
      data: { model, stream: false, messages: [{ role: 'user', content: 'Hello from the activity test' }] },
    });

  // Served (a priced model, so the day's usage has a charge).
  const ok = await chat(apiKey.key, 'openai/gpt-4o-mini');
  expect(ok.status(), await ok.text()).toBe(200);
  // Refused for credit: a key whose limit cannot cover any request.
  const tiny = await request.post(`${apiBaseURL}/api-keys`, { headers: { authorization: `Bearer ${apiKey.key}` }, data: { name: 'Tiny limit', credit_limit: 0.000001 } });
  expect(tiny.status(), await tiny.text()).toBe(201);
  const refused = await chat((await tiny.json()).key, 'openai/gpt-4o-mini');
  expect(refused.status(), await refused.text()).toBe(402);
  // 503: Mistral is not configured on the e2e server, so nothing can serve this model.
  const unavailable = await chat(apiKey.key, 'mistralai/mistral-small-4');
  expect(unavailable.status(), await unavailable.text()).toBe(503);

  await page.getByRole('link', { name: 'Activity' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const table = page.getByRole('region', { name: 'Activity' });
  const dataRows = table.locator('tbody tr');
  // Records are written a moment after the answers: refresh until all three are there.
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(dataRows).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const served = dataRows.filter({ hasText: 'success' });
  const creditRow = dataRows.filter({ has: page.getByText('402', { exact: true }) });
  const noEndpointRow = dataRows.filter({ has: page.getByText('503', { exact: true }) });
  await expect(served).toContainText('openai/gpt-4o-mini');
  await expect(served).toContainText('E2E key');
  await expect(served).toContainText('E2E Activity');
  await expect(creditRow).toContainText('refused');
  await expect(creditRow).toContainText('Tiny limit');
  await expect(noEndpointRow).toContainText('refused');
  await expect(noEndpointRow).toContainText('mistralai/mistral-small-4');
  await expectAccessible(page);
  await captureJourney(page, 'activity');

  // One opens to its full record.
  await creditRow.getByRole('button', { name: /open the record/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Request details' });
  await expect(dialog).toContainText('HTTP 402');
  await expect(dialog).toContainText('payment_required');
  await expect(dialog).toContainText('Tiny limit');
  await expect(dialog).toContainText('E2E Activity');
  await expectAccessible(page);
  await captureJourney(page, 'activity-record');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // CSV of everything the filters select (all three), then the status filter.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^switchboard-activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
  expect(csv).toHaveLength(4);
  const header = csv[0]!.split(',');
  const statusCol = header.indexOf('http_status');
  expect(csv.slice(1).map((line) => line.split(',')[statusCol]).sort()).toEqual(['200', '402', '503']);

  await page.getByLabel('Status').selectOption('refused');
  await expect(dataRows).toHaveCount(2);
  await expect(dataRows.filter({ hasText: 'success' })).toHaveCount(0);
  await page.getByLabel('Status').selectOption('success');
  await expect(dataRows).toHaveCount(1);

  // Credit history: the grant, then the day's usage, each with the balance after it.
  await page.getByRole('link', { name: 'Billing' }).first().click();
  const history = page.getByRole('region', { name: 'Credit history' });
  const grant = history.locator('tbody tr').filter({ hasText: 'Credit adjustment' });
  await expect(grant).toContainText('+$10.00');
  await expect(grant.locator('td').last()).toHaveText('$10.00');
  const usage = history.locator('tbody tr').filter({ hasText: 'Usage: 1 charged request' });
  await expect(usage.locator('td').last()).toHaveText(/^\$9\.9\d{1,5}$/);
  await expect(usage).toContainText(/-\$0\.0\d+/);
  await page.getByRole('heading', { name: 'Credit history' }).scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await captureJourney(page, 'credit-history');

  // Usage: the spend axis reads as its gridlines (distinct, round, $0 at the bottom); spend per key.
  await page.getByRole('link', { name: 'Usage' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  const spend = page.locator('figure').first();
  await expect(spend.getByRole('table', { name: /Spend per/ })).toBeAttached();
  const axis = await spend.locator('div[aria-hidden="true"] > span.leading-none').allTextContents();
  expect(axis.length).toBeGreaterThanOrEqual(2);
  expect(new Set(axis).size).toBe(axis.length);
  expect(axis.at(-1)).toBe('$0');
  for (const label of axis) expect(label).toMatch(/^\$\d+(\.\d+)?K?$/);
  const values = axis.map((l) => Number(l.replace(/[$K]/g, '')));
  const steps = values.slice(0, -1).map((v, i) => +(v - values[i + 1]!).toFixed(9));
  expect(new Set(steps).size, `even steps: ${axis.join(' ')}`).toBe(1);
  await expect(page.getByRole('list', { name: 'Spend per API key' })).toContainText('E2E key');
  await expectAccessible(page);
  await captureJourney(page, 'usage-charts');
});
