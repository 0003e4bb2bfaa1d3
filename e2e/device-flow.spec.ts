// Account auth tokens end to end: the test plays a CLI (device flow over HTTP) and an editor (redirect flow
// to a loopback URI) while a person signs up, accepts the terms and approves in Chromium.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { captureJourney } from './a11y';
import { expect, test, uniqueEmail } from './fixtures';

async function poll(request: APIRequestContext, apiBaseURL: string, deviceCode: string) {
  const res = await request.post(`${apiBaseURL}/auth/device/token`, { data: { device_code: deviceCode } });
  return { status: res.status(), body: await res.json() };
}

test.describe('device flow', () => {
  test('a CLI gets a token after the user signs up and approves in the browser; revoking it ends access', async ({ page, request, apiBaseURL, origin }) => {
    test.setTimeout(90_000);
    // The CLI asks for a code pair.
    const codeRes = await request.post(`${apiBaseURL}/auth/device/code`, { data: { client_name: 'Switchboard CLI (e2e)', client_kind: 'cli' } });
    expect(codeRes.status()).toBe(200);
    const code = await codeRes.json();
    expect(code.verification_uri).toBe(`${origin}/device`);
    expect((await poll(request, apiBaseURL, code.device_code)).body.error.code).toBe('authorization_pending');

    // The person opens the link: not signed in → sign-in page → "Create an account".
    await page.goto(code.verification_uri_complete);
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your Switchboard account');
    const email = uniqueEmail('device');
    await page.getByLabel('Name').fill('Device Tester');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await page.getByLabel('Password').fill('a long enough password');
    await captureJourney(page, 'device-sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();

    // Terms, then back to the device page with the code.
    await expect(page).toHaveURL(/\/terms\?callbackUrl=/);
    await captureJourney(page, 'device-terms');
    await page.getByRole('button', { name: 'Accept and continue' }).click();
    await expect(page).toHaveURL(`${origin}/device?user_code=${code.user_code}`);
    await expect(page.getByTestId('user-code')).toHaveText(code.user_code);
    await expect(page.getByText('Switchboard CLI (e2e)')).toBeVisible();
    await captureJourney(page, 'device-approve');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText('Device approved.')).toBeVisible();

    // The CLI polls at the interval it was given and receives the token, once.
    await page.waitForTimeout(code.interval * 1000);
    const issued = await poll(request, apiBaseURL, code.device_code);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', user: { email } });
    await page.waitForTimeout(code.interval * 1000);
    const again = await poll(request, apiBaseURL, code.device_code);
    expect([again.status, again.body.error.code]).toEqual([409, 'device_code_used']);

    const auth = { authorization: `Bearer ${issued.body.token}` };
    const me = await request.get(`${apiBaseURL}/users/me`, { headers: auth });
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, name: 'Device Tester', requires_terms_acceptance: false });

    // Revoke it: the very next request is refused.
    const tokens = (await (await request.get(`${apiBaseURL}/auth/tokens`, { headers: auth })).json()).data;
    const mine = tokens.find((t: { device_name: string }) => t.device_name === 'Switchboard CLI (e2e)');
    expect((await request.delete(`${apiBaseURL}/auth/tokens/${mine.id}`, { headers: auth })).status()).toBe(200);
    expect((await request.get(`${apiBaseURL}/users/me`, { headers: auth })).status()).toBe(401);
  });

  test('a denied device gets access_denied', async ({ signedInPage: page, request, apiBaseURL }) => {
    const code = await (await request.post(`${apiBaseURL}/auth/device/code`, { data: { client_name: 'Unknown laptop' } })).json();
    await page.goto('/device');
    await page.getByLabel('Device code').fill(code.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Unknown laptop')).toBeVisible();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByText('Request denied.')).toBeVisible();
    const res = await poll(request, apiBaseURL, code.device_code);
    expect([res.status, res.body.error.code]).toEqual([403, 'access_denied']);
  });

  test('an editor on a loopback URI receives a token and its state', async ({ signedInPage: page, request, apiBaseURL }) => {
    let loopback = '';
    const received = new Promise<URL>((resolve) => {
      const server = http.createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Signed in</title><p>You can close this tab.</p>');
        resolve(new URL(req.url ?? '/', 'http://127.0.0.1'));
        server.close();
      });
      server.listen(0, '127.0.0.1', () => (loopback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`));
    });
    await expect.poll(() => loopback).not.toBe('');
    await page.goto(`/authorize?${new URLSearchParams({ redirect_uri: loopback, state: 'xyz-123', client_name: 'E2E Editor' })}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to E2E Editor');
    await captureJourney(page, 'authorize');
    await page.getByRole('button', { name: 'Approve' }).click();
    const url = await received;
    // The loopback server sees the request before the browser has finished that navigation; let it land
    // before navigating again, or the next goto races it.
    await page.waitForURL((u) => u.pathname === '/callback');
    expect(url.searchParams.get('state')).toBe('xyz-123');
    const token = url.searchParams.get('token');
    expect(token).toMatch(/^sb-at-v1-/);
    const list = await request.get(`${apiBaseURL}/auth/tokens`, { headers: { authorization: `Bearer ${token}` } });
    expect((await list.json()).data.map((t: { device_name: string }) => t.device_name)).toContain('E2E Editor');

    // An address that is not an editor or loopback never gets a token.
    await page.goto(`/authorize?${new URLSearchParams({ redirect_uri: 'https://evil.example/cb', state: 's' })}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link cannot be used');
  });
});
