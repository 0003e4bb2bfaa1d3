// Fixtures of the console specs, on top of the shared ones (../fixtures.ts): a user with credit, an API key,
// an organization, a signed-in console page, the CLI against the server's embedded database, and what the
// fake upstream (started by scripts/e2e.mjs) will answer. Every test seeds its own data.
import type { Page } from '@playwright/test';
import { readFixture } from '../../test/fake-upstream';
import { test as base, expect, runCliJson, signInThroughUi, type E2eUser } from '../fixtures';

/** Runs `npm run cli` against the server under test (through its /internal/cli link). Returns --json data. */
export const cli = runCliJson;

export interface ApiKey {
  key: string;
  id: string;
  name: string;
}

export interface Organization {
  id: string;
  name: string;
}

/** What the fake upstream replays: the text a recorded OpenAI-format stream spells out. */
export interface Upstream {
  streamedText(provider: 'openai' | 'openai-compatible', scenario: string): { content: string; reasoning: string };
}

type ConsoleFixtures = {
  /** Credit granted to `user`'s personal account before the test (USD); override with test.use. */
  credit: number;
  /** `user`, holding `credit` dollars. */
  fundedUser: E2eUser;
  /** An API key of `fundedUser` on their personal account (made with the CLI). */
  apiKey: ApiKey;
  /** An organization owned by `fundedUser`, made through the REST API with `apiKey`. */
  organization: Organization;
  /** `page` signed in as `fundedUser`, on /overview. */
  consolePage: Page;
  upstream: Upstream;
};

export const test = base.extend<ConsoleFixtures>({
  credit: [10, { option: true }],

  fundedUser: async ({ user, credit }, use) => {
    if (credit > 0) cli('credits:grant', '--email', user.email, '--amount', String(credit));
    await use(user);
  },

  apiKey: async ({ fundedUser }, use) => {
    const name = 'E2E key';
    const { key, id } = cli('key:create', '--email', fundedUser.email, '--name', name);
    await use({ key, id, name });
  },

  organization: async ({ request, apiBaseURL, apiKey }, use) => {
    const name = `E2E Org ${Math.random().toString(36).slice(2, 7)}`;
    const res = await request.post(`${apiBaseURL}/organizations`, { data: { name }, headers: { authorization: `Bearer ${apiKey.key}` } });
    expect(res.status(), await res.text()).toBe(201);
    const org = await res.json();
    await use({ id: org.id, name: org.name });
  },

  consolePage: async ({ page, fundedUser }, use) => {
    await signInThroughUi(page, fundedUser, '/overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await use(page);
  },

  upstream: async ({}, use) => {
    await use({
      streamedText(provider, scenario) {
        let content = '';
        let reasoning = '';
        for (const line of readFixture(provider, `${scenario}.chunks.txt`).split('\n')) {
          if (!line.startsWith('data: {')) continue;
          const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta ?? {};
          content += delta.content ?? '';
          reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
        }
        return { content, reasoning };
      },
    });
  },
});

/** Makes `account` (an organization's name, or the personal account's) the console's active account. */
export async function switchAccount(page: Page, account: string) {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: new RegExp(account) }).click();
  await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(account);
}

/** The fake upstream's address (scripts/e2e.mjs), e.g. for a provider whose base URL makes it fail (/status/<code>/). */
export function fakeUpstreamUrl(): string {
  const url = process.env.E2E_FAKE_UPSTREAM_URL;
  if (!url) throw new Error('E2E_FAKE_UPSTREAM_URL is not set: run through `npm run test:e2e`, which starts the fake upstream');
  return url;
}

export { expect };
