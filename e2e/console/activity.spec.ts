// Seeing what happened: a served request, one refused for credit (402) and one no provider could take (503)
// all appear in Activity; one opens to its full record; the status filter and the CSV export; the credit
// history shows the grant and the day's usage with the running balance; the Usage charts' axis labels.
// On an organization: each column of a row (provider, tokens, cost, latency, first token of a stream, finish
// reason, member), the record's reasoning and cached tokens and cache savings, a 429 row, the model and key
// filters, hourly charts and spend per member. A request that fails over is marked in its row, and its
// record lists both attempts.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { formatUsd } from '../../components/console/format';
import { captureJourney, expectAccessible } from '../a11y';
import { cli, expect, fakeUpstreamUrl, switchAccount, test } from './fixtures';

/** A row of the Activity table as { column heading: cell text }. */
async function rowCells(page: Page, row: Locator): Promise<Record<string, string>> {
  const headings = await page.getByRole('region', { name: 'Activity' }).locator('thead th').allTextContents(); // innerText would be upper-cased by CSS
  const cells = await row.locator('td').allInnerTexts();
  return Object.fromEntries(headings.map((h, i) => [h.trim(), (cells[i] ?? '').replace(/\s+/g, ' ').trim()]));
}

/** The value of one field of the record dialog (its <dt> label, exactly). */
const field = (dialog: Locator, label: string) => dialog.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');

const DURATION = /^\d+ ms$|^\d+(\.\d)? s$/;

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

test('on an organization, Activity shows each column, the record\'s tokens and savings, a 429, filters and hourly charts', async ({ consolePage: page, request, apiBaseURL, organization, fundedUser }) => {
  test.setTimeout(120_000);
  cli('credits:grant', '--org', organization.id, '--amount', '10');
  const orgKey = cli('key:create', '--email', fundedUser.email, '--org', organization.id, '--name', 'Org key').key as string;
  const chat = (key: string, data: Record<string, unknown>) =>
    request.post(`${apiBaseURL}/chat/completions`, { headers: { authorization: `Bearer ${key}` }, data: { stream: false, messages: [{ role: 'user', content: 'Hello from the organization' }], ...data } });
  const generation = async (id: string) => {
    const res = await request.get(`${apiBaseURL}/generation?id=${id}`, { headers: { authorization: `Bearer ${orgKey}` } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data;
  };

  // A streamed answer with reasoning (the fake's DeepSeek reports 24 reasoning tokens): it has a first token.
  const streamed = await chat(orgKey, { model: 'deepseek/deepseek-v4.1-flash', stream: true });
  expect(streamed.status(), await streamed.text()).toBe(200);
  const streamedId = streamed.headers()['x-generation-id']!;
  // A prompt cache hit (the fake's OpenAI answers a request with a prompt_cache_key with cached input tokens).
  const cached = await chat(orgKey, { model: 'openai/gpt-4o-mini', prompt_cache_key: 'e2e-activity' });
  expect(cached.status(), await cached.text()).toBe(200);
  const cachedId = (await cached.json()).id as string;
  // A key allowed one request a minute: the second is refused with 429.
  const created = await request.post(`${apiBaseURL}/api-keys`, { headers: { authorization: `Bearer ${orgKey}` }, data: { name: 'One per minute', rate_limit_rpm: 1, account_id: organization.id } });
  expect(created.status(), await created.text()).toBe(201);
  const createdBody = (await created.json()) as { key: string; data: { id: string } };
  const slow = { key: createdBody.key, id: createdBody.data.id };
  expect((await chat(slow.key, { model: 'switchboard/echo' })).status()).toBe(200);
  const limited = await chat(slow.key, { model: 'switchboard/echo' });
  expect(limited.status(), await limited.text()).toBe(429);

  await switchAccount(page, organization.name);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const rows = page.getByRole('region', { name: 'Activity' }).locator('tbody tr');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(rows).toHaveCount(4, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  // The streamed row: every column, the member filled in (an organization's Activity has that column).
  const reasoning = await generation(streamedId);
  const streamedRow = rows.filter({ hasText: 'deepseek/deepseek-v4.1-flash' });
  const cells = await rowCells(page, streamedRow);
  expect(cells).toMatchObject({ Status: 'success', Provider: 'deepseek', Source: 'Org key', Member: fundedUser.name, 'Tokens in / out': '18 / 31', Finish: 'stop' });
  expect(cells.Cost).toBe(formatUsd(reasoning.total_cost));
  expect(reasoning.total_cost).toBeGreaterThan(0);
  expect(cells.Latency).toMatch(DURATION);
  expect(cells['First token']).toMatch(DURATION);
  // A non-streamed answer has no first token of its own.
  expect((await rowCells(page, rows.filter({ hasText: 'openai/gpt-4o-mini' })))['First token']).toBe('—');
  // The 429: refused, by the key that hit its limit, with the error code as its finish.
  const limitedCells = await rowCells(page, rows.filter({ has: page.getByText('429', { exact: true }) }));
  expect(limitedCells).toMatchObject({ Source: 'One per minute', Member: fundedUser.name, Cost: '$0.00' });
  expect(limitedCells.Status).toMatch(/^refused ?429$/);
  expect(limitedCells.Finish).toMatch(/rate/);

  // Its record: one attempt, the reasoning tokens inside the output.
  await streamedRow.getByRole('button', { name: /open the record/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Request details' });
  await expect(field(dialog, 'Attempts')).toHaveText('1');
  await expect(field(dialog, 'Served by')).toContainText('deepseek');
  await expect(field(dialog, 'Tokens out')).toHaveText('31 (24 reasoning)');
  await expect(field(dialog, 'First token')).toHaveText(DURATION);
  await expect(field(dialog, 'Member')).toHaveText(fundedUser.name);
  await dialog.getByRole('button', { name: 'Close' }).click();
  // The cache hit's record: cached input tokens and what they saved.
  const hit = await generation(cachedId);
  expect(hit.native_tokens_cached).toBe(1920);
  expect(hit.cache_discount).toBeGreaterThan(0);
  await rows.filter({ hasText: 'openai/gpt-4o-mini' }).getByRole('button', { name: /open the record/ }).click();
  await expect(field(dialog, 'Tokens in')).toHaveText('2,006 (1,920 cached)');
  await expect(field(dialog, 'Cache savings')).toHaveText(formatUsd(hit.cache_discount));
  await expect(field(dialog, 'Cost')).toHaveText(formatUsd(hit.total_cost));
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Filters: by model, then by key.
  await page.getByLabel('Model', { exact: true }).selectOption('openai/gpt-4o-mini');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('openai/gpt-4o-mini');
  await page.getByLabel('Model', { exact: true }).selectOption('');
  await page.getByLabel('API key').selectOption(slow.id);
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) expect((await rowCells(page, row)).Source).toBe('One per minute');
  await page.getByLabel('API key').selectOption('');
  await expect(rows).toHaveCount(4);

  // Usage over the last 24 hours: hourly buckets; spend per member names the member.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Usage' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Spend per day' })).toBeVisible();
  await page.getByLabel('Time range').selectOption({ label: 'Last 24 hours' });
  await expect(page.getByRole('heading', { name: 'Spend per hour' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Spend per day' })).toHaveCount(0);
  const hourly = page.getByRole('table', { name: 'Spend per hour' });
  await expect(hourly).toBeAttached();
  const periods = await hourly.locator('tbody th').allTextContents();
  expect(periods.length).toBeGreaterThan(0);
  for (const period of periods) expect(period).toMatch(/^\d{2}:\d{2}$/);
  await expect(page.getByRole('list', { name: 'Spend per member' })).toContainText(fundedUser.name);
});

test('a request that fails over is marked in Activity, and its record lists both attempts', async ({ consolePage: page, fundedUser, request, apiBaseURL, apiKey }) => {
  test.setTimeout(90_000);
  // An operator's model with two endpoints: a provider that answers 503 (the fake upstream's /status/503/),
  // then OpenAI. Unique ids, so no other spec sees them; deleted at the end.
  cli('user:admin', '--email', fundedUser.email);
  const suffix = randomUUID().slice(0, 8);
  const failing = `e2e-down-${suffix}`;
  const modelId = `e2e/fallback-${suffix}`;
  const trpc = async (procedure: string, data: unknown) => {
    const res = await page.request.post(`/api/trpc/admin.${procedure}`, { data });
    expect(res.status(), await res.text()).toBe(200);
  };
  await trpc('createProvider', { id: failing, type: 'openai-compatible', base_url: `${fakeUpstreamUrl()}/status/503/v1`, keys: [{ key: 'sk-e2e-down' }] });
  const pricing = { input: 0.15, output: 0.6 };
  await trpc('createModel', {
    id: modelId,
    name: `Fallback E2E ${suffix}`,
    context_length: 128_000,
    max_output_tokens: 4_096,
    endpoints: [
      { provider: failing, upstream_model: 'gpt-4o-mini', pricing },
      { provider: 'openai', upstream_model: 'gpt-4o-mini', pricing },
    ],
  });

  const res = await request.post(`${apiBaseURL}/chat/completions`, {
    headers: { authorization: `Bearer ${apiKey.key}` },
    data: { model: modelId, stream: false, messages: [{ role: 'user', content: 'Fail over, please' }] },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).provider).toBe('openai');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Activity' }).click();
  const row = page.getByRole('region', { name: 'Activity' }).locator('tbody tr').filter({ hasText: modelId });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const cells = await rowCells(page, row);
  expect(cells.Status).toBe('success');
  // The provider that finally served, marked as a fallback (the count is for screen readers and the tooltip).
  expect(cells.Provider).toMatch(/^openai ?fell back ?after 2 attempts$/);
  await expect(row.getByText('fell back', { exact: true })).toBeVisible();
  await expectAccessible(page);

  await row.getByRole('button', { name: /open the record/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Request details' });
  const attempts = field(dialog, 'Attempts');
  await expect(attempts).toContainText('2 (failed over)');
  const steps = attempts.getByRole('list', { name: 'Attempts in order' }).getByRole('listitem');
  await expect(steps).toHaveText([`${failing} · ${modelId} · HTTP 503`, `openai · ${modelId} · HTTP 200 · served`]);
  await expect(field(dialog, 'Served by')).toContainText('openai');
  await expectAccessible(page);
  await captureJourney(page, 'activity-failover-record');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A request served at its first attempt is not marked.
  expect((await request.post(`${apiBaseURL}/chat/completions`, { headers: { authorization: `Bearer ${apiKey.key}` }, data: { model: 'openai/gpt-4o-mini', stream: false, messages: [{ role: 'user', content: 'hi' }] } })).status()).toBe(200);
  const plain = page.getByRole('region', { name: 'Activity' }).locator('tbody tr').filter({ hasText: 'openai/gpt-4o-mini' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(plain).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  expect((await rowCells(page, plain)).Provider).toBe('openai');

  await trpc('deleteModel', { id: modelId });
  await trpc('deleteProvider', { id: failing });
});
