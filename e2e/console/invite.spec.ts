// Organizations: the owner creates one from the account switcher, invites a teammate, the teammate accepts
// in a second browser (a different person), and appears among the members.
import { randomUUID } from 'node:crypto';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { captureJourney } from '../a11y';
import { expect, test } from './fixtures';

test('an invite accepted in a second browser adds the member', async ({ consolePage: page, browser, request, apiBaseURL }) => {
  test.setTimeout(90_000);
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: 'Create organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an organization' });
  await dialog.getByLabel('Name', { exact: true }).fill('Invite Labs');
  await dialog.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/organization$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Invite Labs' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText('Invite Labs');

  const teammate = { email: uniqueEmail('teammate'), password: `pw-${randomUUID()}`, name: 'Team Mate' };
  expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: teammate })).status()).toBe(201);
  await page.getByLabel('Email addresses').fill(`${teammate.email}, not-an-email`);
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Send invites' }).click();
  await expect(page.getByText('not-an-email: Enter a valid email address')).toBeVisible();
  await page.getByLabel('Email addresses').fill(teammate.email);
  await page.getByRole('button', { name: 'Send invites' }).click();
  const link = await page.getByLabel(`invite link for ${teammate.email}`, { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/sb-inv-/);
  await expect(page.getByText('1 pending', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pending invites' })).toContainText(teammate.email);

  // The teammate, in their own browser.
  const other = await browser.newContext();
  const teammatePage = await other.newPage();
  const invitePath = new URL(link).pathname;
  await signInThroughUi(teammatePage, teammate, invitePath);
  await expect(teammatePage.getByRole('heading', { name: 'Join Invite Labs' })).toBeVisible();
  await teammatePage.getByRole('button', { name: 'Accept invite' }).click();
  await expect(teammatePage.getByText('Welcome to Invite Labs.')).toBeVisible();
  // The way on is a button, not a URL to type: it opens the console on the organization just joined.
  await teammatePage.getByRole('button', { name: 'Open Invite Labs' }).click();
  await expect(teammatePage).toHaveURL(/\/overview$/);
  await expect(teammatePage.getByRole('button', { name: /^Account:/ })).toContainText('Invite Labs');
  // The account switcher goes back to the personal account.
  await teammatePage.getByRole('button', { name: /^Account:/ }).click();
  await teammatePage.getByRole('button', { name: /Personal/ }).click();
  await expect(teammatePage.getByRole('button', { name: /^Account:/ })).toContainText('Personal');
  await other.close();

  await page.reload();
  const members = page.getByRole('region', { name: 'Members' });
  await expect(members.getByRole('row', { name: /Team Mate/ })).toContainText(teammate.email);
  await expect(members.getByRole('combobox', { name: 'Role of Team Mate' })).toHaveValue('admin');
  await members.getByRole('combobox', { name: 'Role of Team Mate' }).selectOption('billing');
  await expect(page.getByText('Team Mate is now a billing manager')).toBeVisible();
  await expect(page.getByText('0 pending', { exact: true })).toBeVisible();
  await expect(page.getByTestId('seats')).toContainText('2 of 3');
  await captureJourney(page, 'console-organization');
});
