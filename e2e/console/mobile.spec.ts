// The console on a phone (390 × 844): every page with data in it keeps its row actions on screen and
// clickable (tables scroll sideways under a pinned actions column), the page itself never scrolls sideways,
// and the playground's message box stays on screen while the conversation grows. Signing out a CLI
// (/sessions) or another browser (/account) works there too.
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { startWebhookReceiver } from '../../test/webhook-receiver';
import { captureJourney, expectAccessible } from '../a11y';
import { cli, expect, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/**
 * `control` is inside the viewport, nothing covers its middle, and Playwright finds it clickable. With
 * `scroll`, the page is first scrolled vertically (only) to bring the control's row up: scrolling a table
 * sideways to reach the control would hide the very problem this checks. Without it, the page stays as it is.
 */
async function expectReachable(control: Locator, { scroll = true } = {}) {
  await expect(control).toBeVisible();
  if (scroll) await control.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - window.innerHeight / 2));
  const box = await control.boundingBox();
  expect(box, 'the control has a box').not.toBeNull();
  const { x, y, width, height } = box!;
  expect(x, 'left edge on screen').toBeGreaterThanOrEqual(0);
  expect(x + width, 'right edge on screen').toBeLessThanOrEqual(PHONE.width);
  expect(y, 'top edge on screen').toBeGreaterThanOrEqual(0);
  expect(y + height, 'bottom edge on screen').toBeLessThanOrEqual(PHONE.height);
  const uncovered = await control.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top !== null && (top === element || element.contains(top));
  });
  expect(uncovered, 'nothing covers the control').toBe(true);
  await control.click({ trial: true });
}

async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

async function switchTo(page: Page, account: string) {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(account) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(account);
}

test('at 390 px every row action is on screen and clickable, and the playground keeps its message box in view', async ({
  consolePage: page,
  organization,
  fundedUser,
  apiKey,
  request,
  apiBaseURL,
}) => {
  test.setTimeout(240_000);
  const auth = { authorization: `Bearer ${apiKey.key}` };
  cli('credits:grant', '--org', organization.id, '--amount', '5');

  // Data in every table: a key with a request made with it, a pending invite, a provider key, a member limit, a webhook.
  const created = await request.post(`${apiBaseURL}/api-keys`, { headers: auth, data: { name: 'Phone key', account_id: organization.id } });
  expect(created.status(), await created.text()).toBe(201);
  const orgKey = (await created.json()).key as string;
  const echoed = await request.post(`${apiBaseURL}/chat/completions`, {
    headers: { authorization: `Bearer ${orgKey}` },
    data: { model: 'switchboard/echo', stream: false, messages: [{ role: 'user', content: 'hello from a phone' }] },
  });
  expect(echoed.status(), await echoed.text()).toBe(200);
  const invitee = uniqueEmail('phone-invitee');
  const invited = await request.post(`${apiBaseURL}/organizations/${organization.id}/invites`, { headers: auth, data: { emails: [invitee] } });
  expect(invited.status(), await invited.text()).toBe(200);
  const providerKey = await request.put(`${apiBaseURL}/organizations/${organization.id}/provider-keys/openai`, { headers: auth, data: { key: `sk-own-${randomUUID()}` } });
  expect(providerKey.status(), await providerKey.text()).toBe(200);
  const receiver = await startWebhookReceiver();
  const hookPath = receiver.path('phone');
  const hookUrl = `${receiver.origin}${hookPath}`;
  const hook = await request.post(`${apiBaseURL}/organizations/${organization.id}/webhooks`, { headers: auth, data: { url: hookUrl, events: ['member.removed'] } });
  expect(hook.status(), await hook.text()).toBe(201);
  receiver.setSecret(hookPath, (await hook.json()).secret);

  try {
    await switchTo(page, organization.name);

    // ── API keys: edit, rotate and delete on screen; Edit opens its dialog ──
    await visit(page, '/keys', 'API keys');
    const keys = page.getByRole('region', { name: 'API keys' });
    await expect(keys.getByRole('row', { name: /Phone key/ })).toBeVisible();
    for (const action of ['Edit key Phone key', 'Rotate key Phone key', 'Delete key Phone key']) await expectReachable(keys.getByRole('button', { name: action }));
    await keys.getByRole('button', { name: 'Edit key Phone key' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expectAccessible(page);
    await captureJourney(page, 'mobile-keys');

    // ── Activity: the request's record opens from its row ──
    await visit(page, '/activity', 'Activity');
    const activity = page.getByRole('region', { name: 'Activity' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(activity.locator('tbody tr')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expectReachable(activity.getByRole('button', { name: /open the record of this request/ }));
    await expectAccessible(page);
    await captureJourney(page, 'mobile-activity');

    // ── Usage and billing (credit history): no actions, but no sideways page either ──
    await visit(page, '/usage', 'Usage');
    await captureJourney(page, 'mobile-usage');
    await visit(page, '/billing', 'Billing');
    await expect(page.locator('#credit-history').getByRole('region', { name: 'Credit history' })).toBeVisible();
    await expectAccessible(page);
    await captureJourney(page, 'mobile-billing');

    // ── Organization: the owner's own row (Leave) and the invite's Revoke ──
    await visit(page, '/organization', organization.name);
    const members = page.getByRole('region', { name: 'Members' });
    await expectReachable(members.getByRole('row', { name: new RegExp(fundedUser.name) }).getByRole('button', { name: 'Leave' }));
    const revoke = page.getByRole('region', { name: 'Pending invites' }).getByRole('button', { name: `Revoke the invite for ${invitee}` });
    await expectReachable(revoke);
    await expectAccessible(page);
    await captureJourney(page, 'mobile-organization');

    // ── Policy: a member's limit ──
    await visit(page, '/policy', 'Policy & limits');
    await expectReachable(page.getByRole('region', { name: 'Member limits' }).getByRole('button', { name: `Set limit for ${fundedUser.name}` }));
    await expectAccessible(page);
    await captureJourney(page, 'mobile-policy');

    // ── Provider keys ──
    await visit(page, '/provider-keys', 'Provider keys');
    await expectReachable(page.getByRole('region', { name: 'Provider keys' }).getByRole('button', { name: 'Delete key for openai' }));
    await expectAccessible(page);
    await captureJourney(page, 'mobile-provider-keys');

    // ── Webhooks: the endpoint's actions; "Send test" puts a signed webhook.test in the delivery log ──
    await visit(page, '/webhooks', 'Webhooks & alerts');
    await expectReachable(page.getByRole('button', { name: `Show deliveries of ${hookUrl}` }));
    await expectReachable(page.getByRole('button', { name: `Delete webhook ${hookUrl}` }));
    const sendTest = page.getByRole('button', { name: `Send a test event to ${hookUrl}` });
    await expectReachable(sendTest);
    await sendTest.click();
    await receiver.waitFor((all) => all.some((r) => r.path === hookPath && r.payload?.type === 'webhook.test'), 30_000);
    expect(receiver.on(hookPath).map((p) => p.type)).toEqual(['webhook.test']); // verified with the webhook's secret
    await expect(page.getByRole('region', { name: 'Deliveries' }).getByRole('row', { name: /webhook\.test/ })).toContainText('succeeded', { timeout: 20_000 });
    await expectAccessible(page);
    await captureJourney(page, 'mobile-webhooks');

    // ── Audit log and models: readable, no sideways page ──
    await visit(page, '/audit-log', 'Audit log');
    await expect(page.getByRole('list', { name: 'Audit entries' }).getByText('webhook.create', { exact: true })).toBeVisible();
    await captureJourney(page, 'mobile-audit-log');
    await visit(page, '/models', 'Models');
    await captureJourney(page, 'mobile-models');

    // Revoking for real, at phone width: the row goes.
    await visit(page, '/organization', organization.name);
    await revoke.click();
    await expect(page.getByRole('region', { name: 'Pending invites' })).toHaveCount(0);
  } finally {
    await receiver.close();
  }

  // ── The operator's catalog: each provider's and model's switch stays on screen ──
  cli('user:admin', '--email', fundedUser.email);
  await visit(page, '/admin/catalog', /Catalog/);
  // The last cell holds the switch (or says where the entry is managed, for a config file's).
  await expectReachable(page.getByRole('region', { name: 'Providers', exact: true }).getByRole('row', { name: /^echo/ }).locator('td').last());
  await expectReachable(page.getByRole('region', { name: 'Models', exact: true }).getByRole('row', { name: /switchboard\/echo/ }).locator('td').last());
  await captureJourney(page, 'mobile-admin-catalog');

  // ── Playground: the message box stays on screen while the conversation grows ──
  await visit(page, '/playground', 'Playground');
  const message = page.getByLabel('Message');
  const replies = page.getByRole('article', { name: 'Reply from switchboard/echo' });
  // A short placeholder, and keyboard help (Enter, Shift+Enter) left to keyboards: it was clipped in the box here.
  await expect(message).toHaveAttribute('placeholder', 'Send a message');
  await expect(page.getByText('Enter sends, Shift+Enter starts a new line')).toBeHidden();
  // Never scrolled by the test: the box and its Send button must be on screen where the page leaves them.
  for (let turn = 1; turn <= 6; turn++) {
    await expectReachable(message, { scroll: false });
    await message.fill(`Phone message number ${turn}, long enough to take a few lines of the conversation on a narrow screen.`);
    await expectReachable(page.getByRole('button', { name: 'Send' }), { scroll: false });
    await message.press('Enter');
    await expect(replies).toHaveCount(turn);
    await expect(replies.last()).toContainText(`number ${turn}`);
  }
  await expectReachable(message, { scroll: false });
  // The conversation outgrew its box and scrolls inside it.
  const conversation = page.getByRole('region', { name: 'Conversation' }).locator('.overflow-y-auto').first();
  expect(await conversation.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  await expectAccessible(page);
  await captureJourney(page, 'mobile-playground');
});

test('at 390 px a CLI session\'s Revoke and another browser\'s Sign out are on screen and clickable', async ({ consolePage: page, fundedUser, browser, request, apiBaseURL }) => {
  test.setTimeout(120_000);
  // A CLI signed in through the device flow (approved here, at phone width), holding its token.
  const code = await (await request.post(`${apiBaseURL}/auth/device/code`, { data: { client_name: 'Phone CLI', client_kind: 'cli' } })).json();
  await page.goto(`/device?user_code=${code.user_code}`);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Device approved.')).toBeVisible();
  let token = '';
  await expect
    .poll(
      async () => {
        const res = await request.post(`${apiBaseURL}/auth/device/token`, { data: { device_code: code.device_code } });
        if (res.status() === 200) token = (await res.json()).token;
        return res.status();
      },
      { intervals: [code.interval * 1000 + 250], timeout: 30_000 },
    )
    .toBe(200);
  const cliAuth = { authorization: `Bearer ${token}` };
  expect((await request.get(`${apiBaseURL}/users/me`, { headers: cliAuth })).status()).toBe(200);

  // The same person in another browser.
  const laptop = await browser.newContext();
  await signInThroughUi(await laptop.newPage(), fundedUser, '/overview');

  // /sessions: the CLI's Revoke on screen; revoking it ends the token.
  await visit(page, '/sessions', 'Sessions');
  const revoke = page.getByRole('button', { name: 'Revoke Phone CLI' });
  await expectReachable(revoke);
  await expectAccessible(page);
  await captureJourney(page, 'mobile-sessions');
  await revoke.click();
  await page.getByRole('dialog', { name: 'Revoke this session?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('No editors or CLIs are signed in')).toBeVisible();
  // The row goes at once (optimistic); the token is refused once the server has revoked it.
  await expect.poll(async () => (await request.get(`${apiBaseURL}/users/me`, { headers: cliAuth })).status()).toBe(401);

  // /account: the other browser's Sign out, and Sign out all other sessions, on screen; signing it out works.
  await visit(page, '/account', 'Account settings');
  const sessions = page.getByRole('list', { name: 'Browser sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  const signOut = sessions.getByRole('button', { name: /^Sign out / });
  await expectReachable(signOut);
  await expectReachable(page.getByRole('button', { name: 'Sign out all other sessions' }));
  await captureJourney(page, 'mobile-account-sessions');
  await signOut.click();
  await expect(page.getByText('Session signed out')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await laptop.close();
});
