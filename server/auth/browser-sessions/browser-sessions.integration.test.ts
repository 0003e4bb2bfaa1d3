// Browser sessions end to end through HTTP, as a browser goes: next-auth's password sign-in
// (app/api/auth/[...nextauth]) opens a session row and puts its id in the cookie; the console's tRPC route
// (app/api/trpc/[trpc]) checks the row on every call, so a session signed out from another browser, by a
// password or two-factor change, by signing out or by deleting the account is refused from its next call.
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { createUser } from '@/server/users/create-user';
import { uniqueEmail } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { Browser } from '@/test/cookie-browser';
import { describeEachDatabase } from '@/test/db';
import { resetThrottleStore } from '../throttle-store';
import { totpCodeAt } from '../totp';
import { disableTwoFactor } from '../two-factor/disable-two-factor';
import { confirmTwoFactorSetup, startTwoFactorSetup } from '../two-factor/two-factor-setup';
import { BROWSER_SESSION_MAX_AGE_S, LAST_SEEN_THROTTLE_MS, legacyBrowserSessionId } from './browser-session-policy';
import { createBrowserSession } from './create-browser-session';
import { resolveBrowserSession } from './resolve-browser-session';

const SECRET = 'browser-sessions-test-secret-0123456789abcdef';
const COOKIE = 'authjs.session-token';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

interface TrpcReply {
  status: number;
  data?: any;
  code?: string;
}

/** A browser with its own user agent and address (X-Forwarded-For: the test server does not pin it). */
class Client {
  readonly browser = new Browser();
  constructor(
    readonly site: string,
    readonly userAgent: string,
    readonly ip: string,
  ) {}

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('user-agent', this.userAgent);
    headers.set('x-forwarded-for', this.ip);
    return this.browser.fetch(`${this.site}${path}`, { ...init, headers });
  }

  private async csrf(): Promise<string> {
    return ((await (await this.fetch('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  }

  /** The sign-in form's POST (next-auth's Credentials callback). */
  async signIn(email: string, password: string): Promise<void> {
    const res = await this.fetch('/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: await this.csrf(), email, password, callbackUrl: `${this.site}/overview` }),
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).pathname).toBe('/overview');
  }

  async signOut(): Promise<void> {
    const res = await this.fetch('/api/auth/signout', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: await this.csrf(), callbackUrl: `${this.site}/sign-in` }),
    });
    expect(res.status).toBe(302);
  }

  async query(path: string): Promise<TrpcReply> {
    return reply(await this.fetch(`/api/trpc/${path}`));
  }

  async mutate(path: string, input?: unknown): Promise<TrpcReply> {
    return reply(await this.fetch(`/api/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: input === undefined ? undefined : JSON.stringify(input) }));
  }
}

async function reply(res: Response): Promise<TrpcReply> {
  const body = (await res.json()) as { result?: { data: unknown }; error?: { data: { code: string } } };
  return { status: res.status, data: body.result?.data, code: body.error?.data.code };
}

describeEachDatabase('browser sessions', () => {
  let api: ApiServer;
  let site: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    api = await startApiServer();
    site = api.origin.replace('127.0.0.1', 'localhost');
    Object.assign(process.env, { PUBLIC_URL: site, AUTH_SECRET: SECRET });
    resetEnvCache();
  });
  afterAll(async () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    resetEnvCache();
    await api?.close();
  });
  beforeEach(() => resetThrottleStore());

  async function user(label: string) {
    const password = `pw-${label}-correct-horse`;
    const created = await createUser({ email: uniqueEmail(label), password, name: label });
    return { id: created.id, email: created.email, password };
  }

  async function signedIn(u: { email: string; password: string }, userAgent = CHROME_LINUX, ip = '203.0.113.7'): Promise<Client> {
    const client = new Client(site, userAgent, ip);
    await client.signIn(u.email, u.password);
    return client;
  }

  it('a sign-in creates a row (device summary, address) whose id is in the cookie; the list marks this device', async () => {
    const u = await user('list');
    const chrome = await signedIn(u, CHROME_LINUX, '203.0.113.7');
    const firefox = await signedIn(u, FIREFOX_WINDOWS, '198.51.100.23');
    const rows = await (await db()).browserSession.findMany({ where: { userId: u.id }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.userAgent, r.ip, r.revokedAt])).toEqual([
      ['Chrome on Linux', '203.0.113.7', null],
      ['Firefox on Windows', '198.51.100.23', null],
    ]);
    // The raw header is not kept.
    expect(JSON.stringify(rows)).not.toContain('Gecko');

    const fromChrome = await chrome.query('profile.browserSessions');
    expect(fromChrome.status).toBe(200);
    expect(fromChrome.data).toHaveLength(2);
    expect(fromChrome.data[0]).toMatchObject({ id: rows[0].id, device: 'Chrome on Linux', ip: '203.0.113.7', current: true });
    expect(fromChrome.data[1]).toMatchObject({ id: rows[1].id, device: 'Firefox on Windows', current: false });
    const fromFirefox = await firefox.query('profile.browserSessions');
    expect(fromFirefox.data.find((s: { current: boolean }) => s.current).id).toBe(rows[1].id);
  });

  it('signing out another browser: its next tRPC call is unauthorized, this one goes on; "all others" ends the rest', async () => {
    const u = await user('revoke');
    const laptop = await signedIn(u, CHROME_LINUX);
    const phone = await signedIn(u, SAFARI_IOS);
    const tablet = await signedIn(u, FIREFOX_WINDOWS);
    expect((await phone.query('profile.get')).status).toBe(200);
    const phoneId = (await phone.query('profile.browserSessions')).data.find((s: { current: boolean }) => s.current).id;

    expect(await laptop.mutate('profile.revokeBrowserSession', { id: phoneId })).toMatchObject({ status: 200, data: { revoked: true, id: phoneId } });
    expect(await phone.query('profile.get')).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await laptop.query('profile.get')).status).toBe(200);
    expect((await tablet.query('profile.get')).status).toBe(200);
    // Already signed out: a second revocation finds nothing.
    expect(await laptop.mutate('profile.revokeBrowserSession', { id: phoneId })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // Signing in again in the same browser opens a new session.
    await phone.signIn(u.email, u.password);
    expect((await phone.query('profile.get')).status).toBe(200);

    expect(await laptop.mutate('profile.revokeOtherBrowserSessions')).toMatchObject({ status: 200, data: { revoked: 2 } });
    expect((await phone.query('profile.get')).status).toBe(401);
    expect((await tablet.query('profile.get')).status).toBe(401);
    expect((await laptop.query('profile.browserSessions')).data).toEqual([expect.objectContaining({ current: true, device: 'Chrome on Linux' })]);
    const audit = await (await db()).auditLogEntry.findMany({ where: { action: { startsWith: 'browser_session.' }, actorUserId: u.id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((a) => [a.action, a.targetId])).toEqual([
      ['browser_session.revoke', phoneId],
      ['browser_session.revoke_others', u.id],
    ]);
  });

  it('a password change ends every other browser session, not the one that made it', async () => {
    const u = await user('password');
    const current = await signedIn(u, CHROME_LINUX);
    const other = await signedIn(u, FIREFOX_WINDOWS);
    const third = await signedIn(u, SAFARI_IOS);
    const changed = await current.mutate('profile.changePassword', { current_password: u.password, new_password: `${u.password}-new` });
    expect(changed).toMatchObject({ status: 200, data: { changed: true, revoked_browser_sessions: 2 } });
    expect((await current.query('profile.get')).status).toBe(200);
    expect((await other.query('profile.get')).status).toBe(401);
    expect((await third.query('profile.get')).status).toBe(401);
    expect((await current.query('profile.browserSessions')).data).toHaveLength(1);
  });

  it('turning two-factor authentication on, and off, ends the other sessions', async () => {
    const u = await user('tfa');
    const keep = await createBrowserSession({ userId: u.id });
    const other = await createBrowserSession({ userId: u.id });
    const setup = await startTwoFactorSetup({ userId: u.id });
    const now = new Date();
    const result = await confirmTwoFactorSetup({ userId: u.id, input: { code: totpCodeAt(setup.secret, now) }, keepBrowserSessionId: keep.id, now });
    expect(result.revoked_browser_sessions).toBe(1);
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: keep.id })).not.toBeNull();
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: other.id })).toBeNull();

    const another = await createBrowserSession({ userId: u.id });
    const later = new Date(now.getTime() + 30_000);
    expect(await disableTwoFactor({ userId: u.id, input: { code: totpCodeAt(setup.secret, later) }, keepBrowserSessionId: keep.id, now: later })).toEqual({ enabled: false, revoked_browser_sessions: 1 });
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: keep.id })).not.toBeNull();
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: another.id })).toBeNull();
  });

  it('another user cannot sign my session out (404, and mine keeps working), nor list it', async () => {
    const me = await user('mine');
    const intruder = await user('intruder');
    const mine = await signedIn(me);
    const theirs = await signedIn(intruder);
    const myId = (await mine.query('profile.browserSessions')).data[0].id;
    expect(await theirs.mutate('profile.revokeBrowserSession', { id: myId })).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await theirs.mutate('profile.revokeOtherBrowserSessions')).toMatchObject({ status: 200, data: { revoked: 0 } });
    expect((await theirs.query('profile.browserSessions')).data.map((s: { id: string }) => s.id)).not.toContain(myId);
    expect((await mine.query('profile.get')).status).toBe(200);
    expect((await (await db()).browserSession.findUniqueOrThrow({ where: { id: myId } })).revokedAt).toBeNull();
    // Signed out, nobody can call it at all.
    expect(await new Client(site, CHROME_LINUX, '192.0.2.1').mutate('profile.revokeBrowserSession', { id: myId })).toMatchObject({ status: 401 });
  });

  it('signing out revokes the cookie’s own row: a copy of the cookie kept elsewhere no longer works', async () => {
    const u = await user('signout');
    const client = await signedIn(u);
    const copy = new Client(site, CHROME_LINUX, '203.0.113.7');
    copy.browser.restore(new URL(site).host, client.browser.snapshot(new URL(site).host));
    expect((await copy.query('profile.get')).status).toBe(200);
    await client.signOut();
    expect((await client.query('profile.get')).status).toBe(401);
    expect((await copy.query('profile.get')).status).toBe(401);
    const [row] = await (await db()).browserSession.findMany({ where: { userId: u.id } });
    expect(row.revokedAt).not.toBeNull();
  });

  it('deleting the account ends every session', async () => {
    const u = await user('delete');
    const one = await signedIn(u);
    const two = await signedIn(u, FIREFOX_WINDOWS);
    expect((await one.mutate('profile.deleteAccount')).status).toBe(200);
    expect((await one.query('profile.get')).status).toBe(401);
    expect((await two.query('profile.get')).status).toBe(401);
    expect(await (await db()).browserSession.count({ where: { userId: u.id } })).toBe(0);
  });

  it('a cookie from before session tracking (no sid) keeps working on one legacy row per user, which can be signed out', async () => {
    const u = await user('legacy');
    const token = await encode({ token: { uid: u.id, sub: u.id, email: u.email }, secret: SECRET, salt: COOKIE });
    const legacy = new Client(site, FIREFOX_WINDOWS, '198.51.100.9');
    legacy.browser.restore(new URL(site).host, new Map([[COOKIE, token]]));
    expect((await legacy.query('profile.get')).status).toBe(200);
    expect((await legacy.query('profile.get')).status).toBe(200);
    const rows = await (await db()).browserSession.findMany({ where: { userId: u.id } });
    expect(rows.map((r) => [r.id, r.userAgent, r.ip])).toEqual([[legacyBrowserSessionId(u.id), 'Firefox on Windows', '198.51.100.9']]);

    const fresh = await signedIn(u);
    const listed = (await fresh.query('profile.browserSessions')).data;
    expect(listed.map((s: { id: string; current: boolean }) => [s.id, s.current])).toEqual([
      [expect.not.stringMatching(/^legacy_/), true],
      [legacyBrowserSessionId(u.id), false],
    ]);
    expect((await fresh.mutate('profile.revokeBrowserSession', { id: legacyBrowserSessionId(u.id) })).status).toBe(200);
    expect((await legacy.query('profile.get')).status).toBe(401);
    expect((await fresh.query('profile.get')).status).toBe(200);
  });

  it('a sign-in deletes the user’s rows revoked or unseen for longer than a cookie lives, except the legacy row', async () => {
    const u = await user('prune');
    const prisma = await db();
    const longAgo = new Date(Date.now() - (BROWSER_SESSION_MAX_AGE_S + 3600) * 1000);
    const stale = await createBrowserSession({ userId: u.id, now: longAgo });
    const revokedLongAgo = await createBrowserSession({ userId: u.id });
    await prisma.browserSession.update({ where: { id: revokedLongAgo.id }, data: { revokedAt: longAgo } });
    const revokedRecently = await createBrowserSession({ userId: u.id });
    await prisma.browserSession.update({ where: { id: revokedRecently.id }, data: { revokedAt: new Date() } });
    const legacyId = legacyBrowserSessionId(u.id);
    await prisma.browserSession.create({ data: { id: legacyId, userId: u.id, lastSeenAt: longAgo, revokedAt: longAgo } });
    const open = await createBrowserSession({ userId: u.id });
    await createBrowserSession({ userId: u.id });
    const left = (await prisma.browserSession.findMany({ where: { userId: u.id }, select: { id: true } })).map((r) => r.id);
    expect(left).toHaveLength(4);
    expect(left).toEqual(expect.arrayContaining([revokedRecently.id, legacyId, open.id]));
    expect(left).not.toContain(stale.id);
    expect(left).not.toContain(revokedLongAgo.id);
    // Still signed out: a cookie without sid does not get a new legacy row.
    expect(await resolveBrowserSession({ userId: u.id })).toBeNull();
  });

  it('lastSeenAt is written at most once per throttle window; a suspended user resolves to signed out', async () => {
    const u = await user('seen');
    const session = await createBrowserSession({ userId: u.id, client: { ip: '192.0.2.5', userAgent: CHROME_LINUX } });
    const prisma = await db();
    const created = (await prisma.browserSession.findUniqueOrThrow({ where: { id: session.id } })).lastSeenAt;
    const soon = new Date(created.getTime() + LAST_SEEN_THROTTLE_MS - 1_000);
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: session.id, client: { ip: '192.0.2.6' }, now: soon })).toMatchObject({ browserSessionId: session.id, user: { id: u.id } });
    expect(await prisma.browserSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ lastSeenAt: created, ip: '192.0.2.5' });
    const later = new Date(created.getTime() + LAST_SEEN_THROTTLE_MS + 1_000);
    await resolveBrowserSession({ userId: u.id, browserSessionId: session.id, client: { ip: '192.0.2.6' }, now: later });
    expect(await prisma.browserSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ lastSeenAt: later, ip: '192.0.2.6' });

    // Another user's session id does not resolve for me.
    const other = await user('other');
    expect(await resolveBrowserSession({ userId: other.id, browserSessionId: session.id })).toBeNull();

    await prisma.user.update({ where: { id: u.id }, data: { suspendedAt: new Date() } });
    expect(await resolveBrowserSession({ userId: u.id, browserSessionId: session.id })).toBeNull();
  });
});
