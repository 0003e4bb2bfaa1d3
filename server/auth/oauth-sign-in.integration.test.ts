// OAuth sign-in end to end through HTTP, the way a browser goes: next-auth's routes on the test server
// (app/api/auth/[...nextauth]), a local GitHub (test/fake-github.ts) and a Google-like OpenID Connect issuer
// (oidc-provider, test/fake-google-oidc.ts), following every redirect with per-site cookies.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { uniqueEmail } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { Browser } from '@/test/cookie-browser';
import { describeEachDatabase } from '@/test/db';
import { startFakeGitHub, type FakeGitHub } from '@/test/fake-github';
import { startFakeGoogle, type FakeGoogle } from '@/test/fake-google-oidc';

describeEachDatabase('OAuth sign-in', () => {
  let api: ApiServer;
  /** The site's public origin. Next's NextURL spells 127.0.0.1 as localhost, so PUBLIC_URL does too. */
  let site: string;
  let github: FakeGitHub;
  let google: FakeGoogle;
  const saved = { ...process.env };

  beforeAll(async () => {
    api = await startApiServer();
    site = api.origin.replace('127.0.0.1', 'localhost');
    github = await startFakeGitHub({
      callbackUrl: `${site}/api/auth/callback/github`,
      user: { id: 4242, login: 'octo', name: 'Octo Cat', email: null, emails: [] },
    });
    google = await startFakeGoogle({
      callbackUrl: `${site}/api/auth/callback/google`,
      account: { sub: '1098765432101234567890', email: uniqueEmail('google'), email_verified: true, name: 'Goo Gle' },
    });
    Object.assign(process.env, {
      PUBLIC_URL: site,
      AUTH_SECRET: 'oauth-test-secret-0123456789abcdef0123456789',
      AUTH_GITHUB_ID: github.clientId,
      AUTH_GITHUB_SECRET: github.clientSecret,
      AUTH_GITHUB_URL: github.url,
      AUTH_GOOGLE_ID: google.clientId,
      AUTH_GOOGLE_SECRET: google.clientSecret,
      AUTH_GOOGLE_ISSUER: google.issuer,
    });
    resetEnvCache();
  });
  afterAll(async () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    resetEnvCache();
    await api?.close();
    await github?.close();
    await google?.close();
  });

  const isConsole = (url: URL) => url.origin === site && !url.pathname.startsWith('/api/auth/');

  /** Clicks "Continue with <provider>" (next-auth's sign-in POST with its CSRF token) and follows the redirects. */
  async function signIn(browser: Browser, provider: 'github' | 'google') {
    const { csrfToken } = (await (await browser.fetch(`${site}/api/auth/csrf`)).json()) as { csrfToken: string };
    const start = await browser.fetch(`${site}/api/auth/signin/${provider}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${site}/overview` }),
    });
    return browser.follow(start, `${site}/api/auth/signin/${provider}`, isConsole);
  }

  async function session(browser: Browser): Promise<{ user?: { id: string; email: string } } | null> {
    return (await (await browser.fetch(`${site}/api/auth/session`)).json()) as { user?: { id: string; email: string } } | null;
  }

  it('GitHub: authorize → code → token → /user and /user/emails → back in the console, signed in as a new user', async () => {
    const email = uniqueEmail('octo');
    github.user = { id: 4242, login: 'octo', name: 'Octo Cat', email: null, emails: [{ email: uniqueEmail('other'), primary: false, verified: false }, { email, primary: true, verified: true }] };
    const browser = new Browser();
    const { url, visited } = await signIn(browser, 'github');
    expect(visited.some((u) => u.origin === github.url && u.pathname === '/login/oauth/authorize')).toBe(true);
    expect(url.toString()).toBe(`${site}/overview`);
    const s = await session(browser);
    expect(s?.user?.email).toBe(email);
    const prisma = await db();
    const user = await prisma.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true, oauthIdentities: { select: { provider: true, providerAccountId: true } } } });
    expect(user).toMatchObject({ id: s!.user!.id, oauthIdentities: [{ provider: 'github', providerAccountId: '4242' }] });
    expect(user?.emailVerifiedAt).not.toBeNull();
    expect(github.rejections).toEqual([]);
  });

  it('GitHub: a code works once — replaying the callback (same state and PKCE cookies) signs nobody in', async () => {
    github.user = { id: 777, login: 'replay', name: 'Re Play', email: uniqueEmail('replay'), emails: [] };
    github.user.emails = [{ email: github.user.email!, primary: true, verified: true }];
    const browser = new Browser();
    const { csrfToken } = (await (await browser.fetch(`${site}/api/auth/csrf`)).json()) as { csrfToken: string };
    const start = await browser.fetch(`${site}/api/auth/signin/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${site}/overview` }),
    });
    const before = browser.snapshot(new URL(site).host);
    const { url: callback } = await browser.follow(start, site, (u) => u.pathname === '/api/auth/callback/github');
    const first = await browser.follow(await browser.fetch(callback.toString()), callback.toString(), isConsole);
    expect(first.url.pathname).toBe('/overview');

    const attacker = new Browser();
    attacker.restore(new URL(site).host, before);
    const replay = await attacker.follow(await attacker.fetch(callback.toString()), callback.toString(), isConsole);
    expect(replay.url.pathname).toBe('/sign-in');
    expect(replay.url.searchParams.get('error')).toBeTruthy();
    expect((await session(attacker))?.user).toBeUndefined();
    expect(github.rejections).toContain('bad_verification_code');
  });

  it('GitHub: a wrong client secret is refused by GitHub and nobody is signed in', async () => {
    github.rejections.length = 0;
    process.env.AUTH_GITHUB_SECRET = 'not-the-secret';
    resetEnvCache();
    try {
      const browser = new Browser();
      const { url } = await signIn(browser, 'github');
      expect(url.pathname).toBe('/sign-in');
      expect((await session(browser))?.user).toBeUndefined();
      expect(github.rejections).toEqual(['incorrect_client_credentials']);
    } finally {
      process.env.AUTH_GITHUB_SECRET = github.clientSecret;
      resetEnvCache();
    }
  });

  it('GitHub: an account without a verified email is sent back to sign-in, and no user is created', async () => {
    const email = uniqueEmail('unverified');
    github.user = { id: 999, login: 'nov', name: 'No Verify', email, emails: [{ email, primary: true, verified: false }] };
    const browser = new Browser();
    const { url } = await signIn(browser, 'github');
    expect(url.pathname).toBe('/sign-in');
    expect(url.searchParams.get('error')).toBe('UnverifiedEmail');
    expect(await (await db()).user.findUnique({ where: { email } })).toBeNull();
  });

  it('GitHub: a user suspended by an operator is sent back to sign-in (AccessDenied) and gets no session', async () => {
    const email = uniqueEmail('suspended');
    github.user = { id: 5151, login: 'susp', name: 'Sus Pended', email, emails: [{ email, primary: true, verified: true }] };
    expect((await signIn(new Browser(), 'github')).url.toString()).toBe(`${site}/overview`);
    await (await db()).user.update({ where: { email }, data: { suspendedAt: new Date(), suspendedReason: 'test' } });
    const browser = new Browser();
    const { url } = await signIn(browser, 'github');
    expect(url.pathname).toBe('/sign-in');
    expect(url.searchParams.get('error')).toBe('AccessDenied');
    expect((await session(browser))?.user).toBeUndefined();
  });

  it('Google (OpenID Connect): discovery, login and consent at the issuer, ID token → signed in, identity linked', async () => {
    const browser = new Browser();
    const { url, visited } = await signIn(browser, 'google');
    expect(visited.some((u) => u.origin === google.issuer)).toBe(true);
    expect(url.toString()).toBe(`${site}/overview`);
    const s = await session(browser);
    expect(s?.user?.email).toBe(google.account.email);
    const identity = await (await db()).oAuthIdentity.findFirst({ where: { provider: 'google', providerAccountId: google.account.sub }, select: { userId: true } });
    expect(identity?.userId).toBe(s!.user!.id);
  });
});
