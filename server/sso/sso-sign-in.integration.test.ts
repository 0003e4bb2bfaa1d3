// Single sign-on end to end through HTTP, the way a browser goes: next-auth's routes on the test server, real
// OpenID issuers (oidc-provider, test/fake-oidc-issuer.ts) whose login form the "browser" fills in, domain
// verification through a local DNS server. Per organization: the first sign-in creates the user (or links the
// existing one) and the membership with the default role; refusals (unverified email, an email outside the
// organization's verified domains, a tampered state, nonce or issuer, no free seat) sign nobody in.
// Instance-wide (OIDC_*): sign-in and linking by verified email.
import { inspect } from 'node:util';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { createOrganization } from '@/server/organizations/create-organization';
import { createUser } from '@/server/users/create-user';
import { testUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { Browser } from '@/test/cookie-browser';
import { describeEachDatabase } from '@/test/db';
import { startFakeDns, type FakeDns } from '@/test/fake-dns';
import { startFakeOidcIssuer, type FakeOidcAccount, type FakeOidcIssuer } from '@/test/fake-oidc-issuer';
import { findSsoForEmail } from './find-sso-for-email';
import { setOrganizationSso } from './set-organization-sso';
import { verifySsoDomains } from './verify-sso-domains';

const suffix = () => `${process.pid}-${Math.random().toString(36).slice(2, 7)}`;

describeEachDatabase('SSO sign-in', () => {
  let api: ApiServer;
  /** The site's public origin. Next's NextURL spells 127.0.0.1 as localhost, so PUBLIC_URL does too. */
  let site: string;
  let dns: FakeDns;
  /** Acme's own issuer (organization SSO), and the operator's (instance-wide OIDC). */
  let acmeIdp: FakeOidcIssuer;
  let instanceIdp: FakeOidcIssuer;
  let otherIdp: FakeOidcIssuer;
  let owner: Awaited<ReturnType<typeof testUser>>;
  let acme: { id: string };
  let acmeDomain: string;
  const unverifiedDomain = `unverified-${suffix()}.test`;
  const saved = { ...process.env };
  const account = (label: string, domain: string, extra: Partial<FakeOidcAccount> = {}): FakeOidcAccount => ({
    sub: `sub-${label}-${suffix()}`,
    email: `${label}-${suffix()}@${domain}`,
    email_verified: true,
    name: `${label} person`,
    password: `pw-${label}`,
    ...extra,
  });

  /** Joins in the first test; signs in again (a member already, no seat needed) in the loopback test. */
  const newcomer = account('newcomer', 'placeholder.test');

  beforeAll(async () => {
    api = await startApiServer();
    site = api.origin.replace('127.0.0.1', 'localhost');
    dns = await startFakeDns();
    Object.assign(process.env, {
      PUBLIC_URL: site,
      AUTH_SECRET: 'sso-test-secret-0123456789abcdef0123456789abcdef',
      SSO_DNS_SERVERS: dns.address,
      SSO_ALLOW_HTTP_ISSUERS: '1',
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    });
    resetEnvCache();

    owner = await testUser('acme-owner');
    acme = await createOrganization({ userId: owner.id, input: { name: `Acme ${suffix()}` } });
    acmeDomain = `acme-${suffix()}.test`;
    newcomer.email = `newcomer-${suffix()}@${acmeDomain}`;
    // Both spellings of the test server: PUBLIC_URL is localhost, except in the loopback test below.
    acmeIdp = await startFakeOidcIssuer({ redirectUris: [`${site}/api/auth/callback/sso-${acme.id}`, `${api.origin}/api/auth/callback/sso-${acme.id}`], accounts: [] });
    otherIdp = await startFakeOidcIssuer({ redirectUris: [`${site}/api/auth/callback/sso-${acme.id}`], accounts: [], clientId: acmeIdp.clientId });
    instanceIdp = await startFakeOidcIssuer({ redirectUris: [`${site}/api/auth/callback/oidc`], accounts: [] });
    const configured = await setOrganizationSso({
      organizationId: acme.id,
      origin: site,
      input: { issuer: acmeIdp.issuer, client_id: acmeIdp.clientId, client_secret: acmeIdp.clientSecret, domains: [acmeDomain, unverifiedDomain], default_role: 'billing' },
    });
    // Members who join (by invite or by SSO) get the organization's default spend limit.
    await (await db()).organization.update({ where: { id: acme.id }, data: { settings: { default_member_limit_usd: 25, default_member_limit_reset: 'monthly' } } });
    dns.txt.set(`_switchboard.${acmeDomain}`, [configured.domains.find((d) => d.domain === acmeDomain)!.verification.value]);
    // Domains are listed by name: acme-… before unverified-….
    expect((await verifySsoDomains({ organizationId: acme.id, origin: site })).domains.map((d) => [d.domain, d.verified])).toEqual([
      [acmeDomain, true],
      [unverifiedDomain, false],
    ]);
  });
  afterAll(async () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    resetEnvCache();
    await api?.close();
    await dns?.close();
    await acmeIdp?.close();
    await otherIdp?.close();
    await instanceIdp?.close();
  });

  const isSite = (url: URL) => url.origin === site;
  const isConsole = (url: URL) => isSite(url) && !url.pathname.startsWith('/api/auth/');

  interface Tamper {
    /** Change the authorization request before the browser goes to the issuer. */
    authorize?: (url: URL) => void;
    /** Change the issuer's answer before the browser brings it back. */
    callback?: (url: URL) => void;
  }

  /**
   * "Sign in with SSO": next-auth's sign-in POST for `providerId`, then the issuer's login page filled in with
   * `login`, consent, and back to the site. Returns where the browser ended and what it went through.
   */
  async function ssoSignIn(browser: Browser, providerId: string, idp: FakeOidcIssuer, login: { email: string; password: string }, tamper: Tamper = {}) {
    const { csrfToken } = (await (await browser.fetch(`${site}/api/auth/csrf`)).json()) as { csrfToken: string };
    const start = await browser.fetch(`${site}/api/auth/signin/${providerId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${site}/overview` }),
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(idp.issuer);
    tamper.authorize?.(authorize);
    const toLogin = await browser.follow(await browser.fetch(authorize.toString()), authorize.toString(), (u) => u.pathname.startsWith('/interaction/'));
    const page = await browser.fetch(toLogin.url.toString());
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign in to Acme Identity');
    const submitted = await browser.fetch(`${toLogin.url.toString()}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: login.email, password: login.password }),
    });
    const back = await browser.follow(submitted, toLogin.url.toString(), (u) => isSite(u));
    const callback = back.url;
    expect(callback.pathname).toBe(`/api/auth/callback/${providerId}`);
    tamper.callback?.(callback);
    const end = await browser.follow(await browser.fetch(callback.toString()), callback.toString(), isConsole);
    return { url: end.url, authorize, callback };
  }

  async function session(browser: Browser): Promise<{ user?: { id: string; email: string } } | null> {
    return (await (await browser.fetch(`${site}/api/auth/session`)).json()) as { user?: { id: string; email: string } } | null;
  }

  const membership = async (userId: string) =>
    (await db()).membership.findUnique({ where: { organizationId_userId: { organizationId: acme.id, userId } }, select: { role: true } });
  const joinedLimit = async (userId: string) =>
    (await db()).membership.findUnique({ where: { organizationId_userId: { organizationId: acme.id, userId } }, select: { spendLimitMicros: true, limitReset: true } });

  it('first sign-in at the organization\'s issuer: PKCE, state, nonce; a new user joins with the default role', async () => {
    const person = newcomer;
    acmeIdp.accounts.push(person);
    const browser = new Browser();
    const { url, authorize, callback } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(callback.searchParams.get('iss')).toBe(acmeIdp.issuer);
    expect(url.toString()).toBe(`${site}/overview`);
    expect(acmeIdp.logins).toContain(person.email);

    const s = await session(browser);
    expect(s?.user?.email).toBe(person.email);
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({
      where: { email: person.email },
      select: { id: true, emailVerifiedAt: true, activeAccountId: true, passwordHash: true, oauthIdentities: { select: { provider: true, providerAccountId: true } } },
    });
    expect(user).toMatchObject({ id: s!.user!.id, activeAccountId: acme.id, passwordHash: null, oauthIdentities: [{ provider: `oidc:${acmeIdp.issuer}/`, providerAccountId: person.sub }] });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(await membership(user.id)).toEqual({ role: 'BILLING' });
    expect(await joinedLimit(user.id)).toEqual({ spendLimitMicros: 25_000_000n, limitReset: 'MONTHLY' });
    const joined = await prisma.accountEvent.findMany({ where: { accountId: acme.id, type: 'member.joined' }, select: { data: true } });
    expect(joined.map((e) => e.data)).toContainEqual({ member: { user_id: user.id, email: person.email, role: 'billing' }, via: 'sso' });
    const audit = await prisma.auditLogEntry.findMany({ where: { accountId: acme.id, action: 'member.join_sso' }, select: { targetType: true, targetId: true, actorUserId: true, after: true } });
    expect(audit).toEqual([{ targetType: 'member', targetId: user.id, actorUserId: user.id, after: expect.objectContaining({ email: person.email, role: 'billing' }) }]);

    // Signing in again changes nothing: same user, and a role an owner changed since stays.
    await prisma.membership.update({ where: { organizationId_userId: { organizationId: acme.id, userId: user.id } }, data: { role: 'ADMIN' } });
    const again = new Browser();
    expect((await ssoSignIn(again, `sso-${acme.id}`, acmeIdp, person)).url.pathname).toBe('/overview');
    expect((await session(again))?.user?.id).toBe(user.id);
    expect(await membership(user.id)).toEqual({ role: 'ADMIN' });
    expect(await prisma.auditLogEntry.count({ where: { accountId: acme.id, action: 'member.join_sso' } })).toBe(1);
  });

  it('links an existing user with the same email instead of creating one', async () => {
    const person = account('existing', acmeDomain);
    const existing = await createUser({ email: person.email, password: 'a-password-set-before-sso', name: 'Existing' });
    acmeIdp.accounts.push(person);
    const browser = new Browser();
    expect((await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person)).url.pathname).toBe('/overview');
    expect((await session(browser))?.user?.id).toBe(existing.id);
    expect(await membership(existing.id)).toEqual({ role: 'BILLING' });
    expect(await (await db()).user.count({ where: { email: person.email } })).toBe(1);
  });

  it('refuses an email the issuer has not verified: nobody is signed in, nothing is created', async () => {
    const person = account('unverified', acmeDomain, { email_verified: false });
    acmeIdp.accounts.push(person);
    const browser = new Browser();
    const { url } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person);
    expect(url.pathname).toBe('/sign-in');
    expect(url.searchParams.get('error')).toBe('UnverifiedEmail');
    expect((await session(browser))?.user).toBeUndefined();
    expect(await (await db()).user.findUnique({ where: { email: person.email } })).toBeNull();
  });

  it("refuses an email outside the organization's verified domains: an owner's issuer cannot sign in as someone else", async () => {
    const victim = await testUser('victim');
    for (const person of [account('impersonator', 'example.com', { email: victim.email }), account('pending', unverifiedDomain)]) {
      acmeIdp.accounts.push(person);
      const browser = new Browser();
      const { url } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person);
      expect(url.pathname).toBe('/sign-in');
      expect(url.searchParams.get('error')).toBe('SsoDomain');
      expect((await session(browser))?.user).toBeUndefined();
    }
    const prisma = await db();
    expect(await prisma.oAuthIdentity.count({ where: { userId: victim.id } })).toBe(0);
    expect(await membership(victim.id)).toBeNull();
    expect(await prisma.user.count({ where: { email: { endsWith: `@${unverifiedDomain}` } } })).toBe(0);
  });

  it('refuses a tampered state, a tampered nonce, and an answer from another issuer', async () => {
    const person = account('tamper', acmeDomain);
    acmeIdp.accounts.push(person);
    otherIdp.accounts.push(person);
    // next-auth logs why it refused a callback ([auth] CallbackRouteError with oauth4webapi's reason).
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const reasons = () => logged.mock.calls.map((args) => inspect(args, { depth: 6 })).join('\n');
    const attempts: [string, Tamper, RegExp][] = [
      ['state', { callback: (u) => u.searchParams.set('state', `${u.searchParams.get('state')}x`) }, /unexpected "state" response parameter value/],
      ['nonce', { authorize: (u) => u.searchParams.set('nonce', 'nonce-chosen-by-an-attacker') }, /unexpected ID Token "nonce" claim value/],
      ['iss', { callback: (u) => u.searchParams.set('iss', otherIdp.issuer) }, /unexpected "iss" \(issuer\) response parameter value/],
    ];
    try {
      for (const [what, tamper, reason] of attempts) {
        logged.mockClear();
        const browser = new Browser();
        const { url } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person, tamper);
        expect(url.pathname, what).toBe('/sign-in');
        expect(url.searchParams.get('error'), what).toBeTruthy();
        expect((await session(browser))?.user, what).toBeUndefined();
        expect(reasons(), what).toMatch(reason);
      }
      logged.mockClear();
      await codeFromAnotherIssuer(person);
      expect(reasons()).toMatch(/response parameter "iss" \(issuer\) missing/);
    } finally {
      logged.mockRestore();
    }
    expect(await (await db()).user.findUnique({ where: { email: person.email } })).toBeNull();
  });

  /**
   * A code issued by another issuer (the same client id, our redirect URI registered there) brought to Acme's
   * callback without its `iss`: Acme's discovery promises the parameter (RFC 9207), so its absence is refused
   * before the code reaches any token endpoint.
   */
  async function codeFromAnotherIssuer(person: FakeOidcAccount) {
    const browser = new Browser();
    const { csrfToken } = (await (await browser.fetch(`${site}/api/auth/csrf`)).json()) as { csrfToken: string };
    const start = await browser.fetch(`${site}/api/auth/signin/sso-${acme.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${site}/overview` }),
    });
    const authorize = new URL(start.headers.get('location')!);
    const elsewhere = new URL(`${otherIdp.issuer}${authorize.pathname}${authorize.search}`);
    const toLogin = await browser.follow(await browser.fetch(elsewhere.toString()), elsewhere.toString(), (u) => u.pathname.startsWith('/interaction/'));
    const submitted = await browser.fetch(`${toLogin.url.toString()}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: person.email, password: person.password }) });
    const back = await browser.follow(submitted, toLogin.url.toString(), isSite);
    expect(back.url.searchParams.get('iss')).toBe(otherIdp.issuer);
    back.url.searchParams.delete('iss');
    const end = await browser.follow(await browser.fetch(back.url.toString()), back.url.toString(), isConsole);
    expect(end.url.pathname).toBe('/sign-in');
    expect((await session(browser))?.user).toBeUndefined();
  }

  it('with PUBLIC_URL on 127.0.0.1 (which Next spells localhost in route handlers) the flow stays on PUBLIC_URL', async () => {
    const person = newcomer;
    const localhostSite = site;
    site = api.origin;
    process.env.PUBLIC_URL = site;
    resetEnvCache();
    try {
      const browser = new Browser();
      const { url, authorize, callback } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person);
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${api.origin}/api/auth/callback/sso-${acme.id}`);
      expect(callback.origin).toBe(api.origin);
      expect(url.toString()).toBe(`${api.origin}/overview`);
      expect((await session(browser))?.user?.email).toBe(person.email);
    } finally {
      site = localhostSite;
      process.env.PUBLIC_URL = site;
      resetEnvCache();
    }
  });

  it('refuses a newcomer when the organization has no free seat (the free plan: 3 members)', async () => {
    const prisma = await db();
    const members = await prisma.membership.count({ where: { organizationId: acme.id } });
    for (let i = members; i < 3; i++) {
      const filler = await testUser(`filler${i}`);
      await prisma.membership.create({ data: { organizationId: acme.id, userId: filler.id, role: 'MEMBER' } });
    }
    const person = account('late', acmeDomain);
    acmeIdp.accounts.push(person);
    const browser = new Browser();
    const { url } = await ssoSignIn(browser, `sso-${acme.id}`, acmeIdp, person);
    expect(url.pathname).toBe('/sign-in');
    expect(url.searchParams.get('error')).toBe('SsoNoSeat');
    expect((await session(browser))?.user).toBeUndefined();
    expect(await prisma.membership.count({ where: { organizationId: acme.id } })).toBe(3);
  });

  it('instance-wide OIDC (OIDC_ISSUER…): signs in and links by verified email; the SSO step falls back to it', async () => {
    Object.assign(process.env, { OIDC_ISSUER: instanceIdp.issuer, OIDC_CLIENT_ID: instanceIdp.clientId, OIDC_CLIENT_SECRET: instanceIdp.clientSecret, OIDC_NAME: 'Corp Login' });
    resetEnvCache();
    try {
      expect(await findSsoForEmail(`someone@${acmeDomain}`)).toMatchObject({ kind: 'organization', organizationId: acme.id });
      expect(await findSsoForEmail(`someone@elsewhere-${suffix()}.test`)).toEqual({ kind: 'instance', providerId: 'oidc' });
      const providers = (await (await fetch(`${site}/api/auth/providers`)).json()) as Record<string, { name: string; type: string }>;
      expect(providers.oidc).toMatchObject({ name: 'Corp Login', type: 'oidc' });

      const existing = await testUser('corp');
      const person = account('corp', 'example.com', { email: existing.email });
      instanceIdp.accounts.push(person);
      const browser = new Browser();
      const { url, authorize } = await ssoSignIn(browser, 'oidc', instanceIdp, person);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.pathname).toBe('/overview');
      expect((await session(browser))?.user?.id).toBe(existing.id);
      const identity = await (await db()).oAuthIdentity.findFirst({ where: { userId: existing.id }, select: { provider: true, providerAccountId: true } });
      expect(identity).toEqual({ provider: `oidc:${instanceIdp.issuer}/`, providerAccountId: person.sub });

      const unverified = account('corp-unverified', 'example.com', { email_verified: false });
      instanceIdp.accounts.push(unverified);
      const refused = new Browser();
      const end = await ssoSignIn(refused, 'oidc', instanceIdp, unverified);
      expect(end.url.searchParams.get('error')).toBe('UnverifiedEmail');
      expect((await session(refused))?.user).toBeUndefined();
    } finally {
      for (const k of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_NAME']) delete process.env[k];
      resetEnvCache();
    }
    expect(await findSsoForEmail(`someone@elsewhere-${suffix()}.test`)).toBeNull();
  });
});
