// The playground streams a reply through the real gateway (the provider is the fake upstream replaying a
// recorded OpenAI stream) and shows its tokens and cost; a reasoning model shows its reasoning.
import { captureJourney } from '../a11y';
import { expect, test } from './fixtures';

test('the playground streams replies with tokens, cost and reasoning', async ({ consolePage: page, upstream }) => {
  test.setTimeout(60_000);
  await page.getByRole('link', { name: 'Playground' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Playground' })).toBeVisible();
  await page.getByLabel('Model').selectOption('openai/gpt-4o-mini');
  await expect(page.getByLabel('Message')).toHaveAccessibleDescription('Enter sends, Shift+Enter starts a new line');
  await page.getByLabel('Message').fill('Say hello');
  await page.getByLabel('Message').press('Enter');

  const expected = upstream.streamedText('openai', 'text');
  const reply = page.getByRole('article', { name: 'Reply from openai/gpt-4o-mini' });
  await expect(reply.getByTestId('assistant-content')).toHaveText(expected.content);
  const stats = reply.getByTestId('reply-stats');
  await expect(stats).toContainText(/Tokens\d+ in · \d+ out/);
  await expect(stats).toContainText(/Cost\$0\.0/);
  await expect(stats).toContainText('Finishstop');

  await page.getByLabel('Model').selectOption('deepseek/deepseek-v4.1-flash');
  await page.getByLabel('Message').fill('Think first');
  await page.getByRole('button', { name: 'Send' }).click();
  const reasoned = page.getByRole('article', { name: 'Reply from deepseek/deepseek-v4.1-flash' });
  const thought = upstream.streamedText('openai-compatible', 'reasoning');
  await expect(reasoned.getByTestId('assistant-content')).toHaveText(thought.content);
  await reasoned.getByText(/^Reasoning/).click();
  await expect(reasoned.getByTestId('reasoning')).toHaveText(thought.reasoning);
  await captureJourney(page, 'console-playground');

  // Tools: the model's tool call is shown with its arguments (not run).
  await page.getByLabel('Model').selectOption('openai/gpt-4o-mini');
  await page.getByText('Advanced').click();
  await page.getByRole('button', { name: 'Insert an example tool' }).click();
  await page.getByLabel('Message').fill('Weather in Paris?');
  await page.getByRole('button', { name: 'Send' }).click();
  const called = page.getByRole('article', { name: 'Reply from openai/gpt-4o-mini' }).last();
  await expect(called).toContainText('Tool call · get_weather');
  await expect(called.getByTestId('reply-stats')).toContainText('Finishtool_calls');

  // The replies were charged to the account and recorded as usage from the playground.
  await page.goto('/usage');
  await expect(page.getByRole('region', { name: 'Requests' }).getByRole('row', { name: /deepseek\/deepseek-v4\.1-flash.*Playground/ })).toBeVisible({ timeout: 15_000 });
});

test('the playground endpoint refuses the signed-out and other sites', async ({ request, consolePage: page, origin }) => {
  const body = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }] };
  const signedOut = await request.post(`${origin}/api/console/chat`, { data: body });
  expect(signedOut.status()).toBe(401);
  expect((await signedOut.json()).error).toMatchObject({ code: 401, message: 'Sign in to use the playground' });
  // With the session cookie but from another site's page: refused before the gateway runs.
  const crossSite = await page.request.post('/api/console/chat', { data: body, headers: { origin: 'https://evil.example' } });
  expect(crossSite.status()).toBe(403);
  const sameSite = await page.request.post('/api/console/chat', { data: { ...body, stream: false }, headers: { origin } });
  expect(sameSite.status()).toBe(200);
  expect((await sameSite.json()).choices[0].message.content).toBe('hi');
});
