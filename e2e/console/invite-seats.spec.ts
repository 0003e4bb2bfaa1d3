// Invites are seat-aware: with every seat of the free plan (3 members) taken, the invite form says so and
// offers the plan change instead of sending invites nobody could accept.
import { randomUUID } from 'node:crypto';
import { captureJourney, expectAccessible } from '../a11y';
import { uniqueEmail } from '../fixtures';
import { cli, expect, test } from './fixtures';

test('a full organization says so on the invite form and offers the plan change', async ({ consolePage: page, request, apiBaseURL, apiKey, organization }) => {
  test.setTimeout(120_000);
  const owner = { authorization: `Bearer ${apiKey.key}` };
  // Two teammates accept invites: with the owner that is the free plan's 3 members.
  for (let i = 0; i < 2; i++) {
    const mate = { email: uniqueEmail(`seat${i}`), password: `pw-${randomUUID()}`, name: `Seat ${i}` };
    expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: mate })).status()).toBe(201);
    const sent = await request.post(`${apiBaseURL}/organizations/${organization.id}/invites`, { headers: owner, data: { emails: [mate.email], role: 'member' } });
    expect(sent.status(), await sent.text()).toBe(200);
    const token = new URL((await sent.json()).data[0].link).pathname.split('/').pop();
    const mateKey = cli('key:create', '--email', mate.email, '--name', 'k').key;
    const accepted = await request.post(`${apiBaseURL}/invites/accept`, { headers: { authorization: `Bearer ${mateKey}` }, data: { token } });
    expect(accepted.status(), await accepted.text()).toBe(200);
  }

  await page.reload(); // the organization was made after the console loaded its accounts
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(organization.name) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(organization.name);
  await page.goto('/organization');
  await expect(page.getByTestId('seats')).toContainText('3 of 3');
  const full = page.getByRole('status').filter({ hasText: 'All 3 seats are in use' });
  await expect(full).toBeVisible();
  await expect(full.getByRole('link', { name: 'Change plan' })).toHaveAttribute('href', '/plans');

  await page.getByLabel('Email addresses').fill(uniqueEmail('one-too-many'));
  await page.getByRole('button', { name: 'Send invites' }).click();
  await expect(page.getByText('All 3 seats are taken, so an invite could not be accepted. Add seats or change the plan first.')).toBeVisible();
  await expect(page.getByText('0 pending', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await captureJourney(page, 'invite-seats-full');

  await full.getByRole('link', { name: 'Change plan' }).click();
  await expect(page).toHaveURL(/\/plans$/);
});
