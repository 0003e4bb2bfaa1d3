// The base every spec imports `test` and `expect` from. Later specs extend it further (signed-in pages,
// API keys, fake upstreams): `export const test = base.extend<{ user: User }>({ ... })`.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * `npm run cli -- <args>` against the server under test (its embedded database, through the server's /internal/cli
 * link), returning what it printed. Runs the build's bundle of the CLI (dist/cli.js, made by `npm run build` with
 * the server's): starting it takes half the time of compiling server/cli/main.ts with tsx, and every console
 * test's fixtures call it.
 */
export function runCli(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through `npm run test:e2e`, which starts the server');
  return execFileSync(process.execPath, ['dist/cli.js', ...args], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' });
}

/** runCli with --json: the JSON document the command printed last. */
export function runCliJson(...args: string[]): any {
  return JSON.parse(runCli(...args, '--json').trim().split('\n').at(-1)!);
}

/** A user created through the public sign-up endpoint (not signed in anywhere yet). */
export interface E2eUser {
  email: string;
  password: string;
  name: string;
  id: string;
}

/** A fresh email for each call, so specs running in parallel never collide. */
export const uniqueEmail = (label = 'e2e') => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** Signs in through the real sign-in page and accepts the terms when asked; ends on `callbackUrl` (by default the console, where signing in lands). */
export async function signInThroughUi(page: Page, user: Pick<E2eUser, 'email' | 'password'>, callbackUrl = '/overview'): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  // A user who accepted the terms passes /terms on an automatic redirect: wait for whichever comes first, the
  // destination or the terms button, instead of waiting for a button that will not come.
  const arrived = (url: URL) => url.pathname + url.search === callbackUrl;
  const accept = page.getByRole('button', { name: 'Accept and continue' });
  await Promise.race([page.waitForURL(arrived).catch(() => {}), accept.waitFor().catch(() => {})]);
  if (!arrived(new URL(page.url())) && (await accept.isVisible())) await accept.click();
  await page.waitForURL(arrived);
}

type Fixtures = {
  /** A user made with POST /api/v1/auth/sign-up. */
  user: E2eUser;
  /** `page`, signed in as `user` (terms accepted). */
  signedInPage: Page;
  /** The server under test without a trailing slash, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** `${origin}/api/v1`, what OpenAI SDKs take as their base URL. */
  apiBaseURL: string;
};

// Errors a page may log without failing a test: resources that are not there yet (prefetching links to
// pages that later work adds) are the server's business, not the page's.
const tolerated = [/Failed to load resource/];

export const test = base.extend<Fixtures>({
  origin: async ({ baseURL }, use) => {
    if (!baseURL) throw new Error('baseURL is not set: run through `npm run test:e2e` or set E2E_BASE_URL');
    await use(baseURL.replace(/\/+$/, ''));
  },

  apiBaseURL: async ({ origin }, use) => {
    await use(`${origin}/api/v1`);
  },

  // Every page fails its test on an uncaught exception or a console error (hydration mismatches show up
  // there), so no spec has to remember to look.
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !tolerated.some((re) => re.test(message.text()))) {
        problems.push(`console.error: ${message.text()}`);
      }
    });
    await use(page);
    expect(problems, 'errors in the browser console').toEqual([]);
  },

  user: async ({ request, apiBaseURL }, use) => {
    const credentials = { email: uniqueEmail('user'), password: `pw-${randomUUID()}`, name: 'E2E User' };
    const res = await request.post(`${apiBaseURL}/auth/sign-up`, { data: credentials });
    expect(res.status(), await res.text()).toBe(201);
    const { user } = await res.json();
    await use({ ...credentials, id: user.id });
  },

  signedInPage: async ({ page, user }, use) => {
    await signInThroughUi(page, user);
    await use(page);
  },
});

export { expect };
