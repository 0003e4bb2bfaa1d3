// Single sign-on in Chromium: an owner sets up the organization's OpenID issuer (a real oidc-provider running
// in this worker) and verifies the domain through DNS (the fake DNS server scripts/e2e.mjs gives the server);
// then a person of that domain types their email on the sign-in page, logs in on the issuer's own page and
// lands in the console as a member of the organization.
import { randomUUID } from 'node:crypto';
import { startFakeOidcIssuer } from '../../test/fake-oidc-issuer';
import { captureJourney } from '../a11y';
import { expect, test } from './fixtures';

/** Publishes TXT records on the fake DNS server the server under test resolves with. */
async function publishTxt(name: string, values: string[]): Promise<void> {
  const control = process.env.E2E_FAKE_DNS_URL;
  if (!control) throw new Error('E2E_FAKE_DNS_URL is not set: run through `npm run test:e2e`, which starts the fake DNS server');
  const res = await fetch(`${control}/txt/${name}`, { method: 'PUT', body: JSON.stringify(values) });
  expect(res.status).toBe(204);
}

test('a person of a verified domain signs in through the organization\'s issuer and lands in its console', async ({ page, request, apiBaseURL, origin, apiKey, organization }) => {
  test.setTimeout(60_000);
  const domain = `acme-${randomUUID().slice(0, 8)}.test`;
  const person = { sub: randomUUID(), email: `ada@${domain}`, email_verified: true, name: 'Ada Lovelace', password: `pw-${randomUUID()}` };
  const idp = await startFakeOidcIssuer({ redirectUris: [`${origin}/api/auth/callback/sso-${organization.id}`], accounts: [person] });
  try {
    const auth = { authorization: `Bearer ${apiKey.key}` };
    const sso = `${apiBaseURL}/organizations/${organization.id}/sso`;
    const put = await request.put(sso, { headers: auth, data: { issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, domains: [domain] } });
    expect(put.status(), await put.text()).toBe(200);
    const config = await put.json();
    expect(config.redirect_uri).toBe(`${origin}/api/auth/callback/sso-${organization.id}`);
    await publishTxt(config.domains[0].verification.name, [config.domains[0].verification.value]);
    const verify = await request.post(`${sso}/verify`, { headers: auth });
    expect((await verify.json()).domains[0]).toMatchObject({ domain, verified: true });

    const issuerRequests: URL[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(idp.issuer)) issuerRequests.push(new URL(r.url()));
    });
    await page.goto('/sign-in?callbackUrl=%2Foverview');
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in with SSO' })).toBeVisible();
    await page.getByLabel('Work email').fill(person.email);
    await page.getByRole('button', { name: 'Continue' }).click();

    // The issuer's own login page, on its own origin; the email travelled as login_hint.
    await page.waitForURL((url) => url.origin === idp.issuer);
    await expect(page.getByRole('heading', { name: 'Sign in to Acme Identity' })).toBeVisible();
    const authorize = issuerRequests.find((u) => u.pathname === '/auth');
    expect(authorize?.searchParams.get('login_hint')).toBe(person.email);
    expect(authorize?.searchParams.get('code_challenge_method')).toBe('S256');
    await page.getByLabel('Username').fill(person.email);
    await page.getByLabel('Passphrase').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();

    // Back on Switchboard: a new user accepts the terms, then the console opens on the organization.
    await page.waitForURL((url) => url.origin === origin && url.pathname === '/terms');
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await page.waitForURL((url) => url.pathname === '/overview');
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Account:/ })).toContainText(organization.name);
    expect(idp.logins).toEqual([person.email]);
    await captureJourney(page, 'sso-signed-in');

    const members = await request.get(`${apiBaseURL}/organizations/${organization.id}/members`, { headers: auth });
    expect((await members.json()).data).toContainEqual(expect.objectContaining({ email: person.email, name: person.name, role: 'member' }));
  } finally {
    await idp.close();
  }
});

test('an email of a domain without single sign-on is told so on the SSO step', async ({ page }) => {
  await page.goto('/sign-in/sso');
  await page.getByLabel('Work email').fill(`someone@no-sso-${randomUUID().slice(0, 8)}.test`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(/Single sign-on is not set up for no-sso-/)).toBeVisible();
});
