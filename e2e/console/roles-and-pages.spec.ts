// Every console page for an organization owner (screenshots at 1440 and 390 px), and the same console
// for a plain member, who does not see what their role may not use — the server refuses it anyway.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { signInThroughUi, uniqueEmail } from '../fixtures';
import { captureJourney } from '../a11y';
import { cli, expect, test } from './fixtures';

async function switchTo(page: Page, account: string) {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(account) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(account);
}

test('owners see every page; members only what their role allows', async ({ consolePage: page, organization, apiKey, browser, request, apiBaseURL }) => {
  test.setTimeout(120_000);
  // A member, through the REST API: invited by the owner's key, accepted with the member's own key.
  const member = { email: uniqueEmail('member'), password: `pw-${randomUUID()}`, name: 'Plain Member' };
  expect((await request.post(`${apiBaseURL}/auth/sign-up`, { data: member })).status()).toBe(201);
  const owner = { authorization: `Bearer ${apiKey.key}` };
  const invite = await (await request.post(`${apiBaseURL}/organizations/${organization.id}/invites`, { headers: owner, data: { emails: [member.email] } })).json();
  const token = invite.data[0].link.split('/invite/')[1];
  const memberKey = cli('key:create', '--email', member.email).key;
  expect((await request.post(`${apiBaseURL}/invites/accept`, { headers: { authorization: `Bearer ${memberKey}` }, data: { token } })).status()).toBe(200);
  cli('credits:grant', '--org', organization.id, '--amount', '20');

  await switchTo(page, organization.name);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Plans' })).toBeVisible();

  await page.goto('/models');
  await expect(page.getByRole('heading', { name: 'OpenAI: GPT-4o mini' })).toBeVisible();
  await page.getByRole('button', { name: 'Reasoning', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'OpenAI: GPT-4o mini' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Reasoning', exact: true }).click();
  await captureJourney(page, 'console-models');

  await page.goto('/plans');
  await expect(page.getByRole('listitem').filter({ hasText: 'Current plan' })).toContainText('Free');
  await expect(page.getByRole('button', { name: /^Subscribe/ })).toBeVisible();
  await captureJourney(page, 'console-plans');

  await page.goto('/sessions');
  await expect(page.getByText('No editors or CLIs are signed in')).toBeVisible();
  await captureJourney(page, 'console-sessions');

  await page.goto('/organization');
  await expect(page.getByRole('region', { name: 'Members' }).getByRole('row', { name: /Plain Member/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invites' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete organization' })).toBeVisible();

  // The member's console, in their own browser.
  const context = await browser.newContext();
  const memberPage = await context.newPage();
  await signInThroughUi(memberPage, member, '/overview');
  await switchTo(memberPage, organization.name);
  const memberNav = memberPage.getByRole('navigation', { name: 'Console' });
  await expect(memberNav.getByRole('link', { name: 'API keys' })).toBeVisible();
  await expect(memberNav.getByRole('link', { name: 'Billing' })).toHaveCount(0);
  await expect(memberPage.getByText('Your role shows whether credit remains, not the amount.')).toBeVisible();
  await memberPage.goto('/organization');
  // Two regions are named Members once the table has loaded (the section and its table's scroll region): the section comes first.
  await expect(memberPage.getByRole('region', { name: 'Members' }).first()).toBeVisible();
  await expect(memberPage.getByRole('button', { name: 'Send invites' })).toHaveCount(0);
  await expect(memberPage.getByRole('combobox', { name: /Role of/ })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: 'Delete organization' })).toHaveCount(0);
  await expect(memberPage.getByLabel('Name', { exact: true })).toBeDisabled();
  await captureJourney(memberPage, 'console-member-organization');
  await memberPage.goto('/billing');
  await expect(memberPage.getByText('Billing is managed by owners and billing managers')).toBeVisible();
  await memberPage.goto('/keys');
  await expect(memberPage.getByRole('heading', { name: 'Your keys' })).toBeVisible();
  await expect(memberPage.getByRole('row', { name: /E2E key/ })).toHaveCount(0);
  await captureJourney(memberPage, 'console-member-keys');
  // The server refuses what the console hides: billing through the member's session.
  const refused = await memberPage.request.post('/api/trpc/billing.checkout', { data: { amount: 10 } });
  expect(refused.status()).toBe(403);
  await context.close();
});
