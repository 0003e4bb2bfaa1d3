// REST /api/v1/organizations/{id}/sso through HTTP: who may set it up, what it refuses, the write-only
// encrypted client secret, and domain verification by DNS TXT record against a local DNS server (node:dns's
// resolver pointed at test/fake-dns.ts) and a real OpenID issuer (oidc-provider, test/fake-oidc-issuer.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { decryptSecret } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { jsonClient, organizationWorld, testUser, type OrganizationWorld } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { startFakeDns, type FakeDns } from '@/test/fake-dns';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '@/test/fake-oidc-issuer';
import { createOrganization } from '@/server/organizations/create-organization';
import { findSsoForEmail } from './find-sso-for-email';

let counter = 0;
const uniqueDomain = (label: string) => `${label}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 6)}.test`;

describeEachDatabase('REST /api/v1/organizations/{id}/sso', () => {
  let api: ApiServer;
  let dns: FakeDns;
  let issuer: FakeOidcIssuer;
  /** Serves a discovery document that names another issuer than the one it is served at. */
  let impostor: http.Server;
  let impostorUrl: string;
  const call = jsonClient(() => api.origin);
  const saved = { ...process.env };

  beforeAll(async () => {
    api = await startApiServer();
    dns = await startFakeDns();
    issuer = await startFakeOidcIssuer({ redirectUris: ['http://localhost/unused'], accounts: [] });
    impostor = http.createServer(async (_req, res) => {
      const doc = (await (await fetch(`${issuer.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    });
    await new Promise<void>((r) => impostor.listen(0, '127.0.0.1', r));
    impostorUrl = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    Object.assign(process.env, {
      PUBLIC_URL: api.origin,
      SSO_DNS_SERVERS: dns.address,
      SSO_ALLOW_HTTP_ISSUERS: '1',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    delete process.env.OIDC_ISSUER;
    delete process.env.OIDC_CLIENT_ID;
    delete process.env.OIDC_CLIENT_SECRET;
    resetEnvCache();
  });
  afterAll(async () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    resetEnvCache();
    await api?.close();
    await dns?.close();
    await issuer?.close();
    await new Promise((r) => impostor?.close(r));
  });
  beforeEach(() => {
    dns.txt.clear();
  });

  const sso = (orgId: string) => `/organizations/${orgId}/sso`;
  const config = (domains: string[], extra: Record<string, unknown> = {}) => ({ issuer: issuer.issuer, client_id: issuer.clientId, client_secret: issuer.clientSecret, domains, ...extra });

  it('only owners may read, set, verify or remove it; strangers are told nothing exists', async () => {
    const w: OrganizationWorld = await organizationWorld('SSO Perms');
    const body = config([uniqueDomain('perms')]);
    for (const persona of ['admin', 'billing', 'member'] as const) {
      const token = w[persona].token;
      for (const [method, path, payload] of [['GET', sso(w.organizationId)], ['PUT', sso(w.organizationId), body], ['DELETE', sso(w.organizationId)], ['POST', `${sso(w.organizationId)}/verify`]] as const) {
        const res = await call(method, path, token, payload);
        expect(res.status, `${persona} ${method} ${path}`).toBe(403);
        expect(res.body.error.message).toMatch(/sso:manage/);
      }
    }
    expect((await call('GET', sso(w.organizationId), w.stranger.token)).status).toBe(404);
    expect((await call('PUT', sso(w.organizationId), w.stranger.token, body)).status).toBe(404);
    expect((await call('GET', sso(w.organizationId), null)).status).toBe(401);
    // A personal account is not an organization.
    expect((await call('PUT', sso(w.owner.personalAccountId), w.owner.token, body)).status).toBe(404);

    expect((await call('GET', sso(w.organizationId), w.owner.token)).status).toBe(404);
    expect((await call('PUT', sso(w.organizationId), w.owner.token, body)).status).toBe(200);
    expect((await call('GET', sso(w.organizationId), w.owner.token)).status).toBe(200);
  });

  it('refuses bad input with a 400 that names the field', async () => {
    const w = await organizationWorld('SSO Validation');
    const put = (payload: unknown) => call('PUT', sso(w.organizationId), w.owner.token, payload);
    const d = uniqueDomain('valid');
    const cases: [unknown, RegExp][] = [
      [config([d], { client_secret: undefined }), /client_secret is required/],
      [config([]), /at least one email domain/],
      [config(['localhost']), /domain name/],
      [config(['10.0.0.1']), /domain name/],
      [config(['acme.com/path']), /domain name/],
      [config(['-acme.com']), /domain name/],
      [config([d], { default_role: 'owner' }), /default_role/],
      [config([d], { issuer: 'not a url' }), /issuer/],
      [config([d], { issuer: `${issuer.issuer}?tenant=1` }), /no query/],
      [config([d], { client_id: '' }), /client_id/],
      [config([d], { issuer: impostorUrl }), /names another issuer/],
      [config([d], { issuer: 'http://127.0.0.1:9/nothing-here' }), /could not be reached|did not answer/],
      [config([d], { issuer: `${api.origin}/api/health` }), /did not answer with a discovery document/],
    ];
    for (const [payload, message] of cases) {
      const res = await put(payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    process.env.SSO_ALLOW_HTTP_ISSUERS = '0';
    resetEnvCache();
    try {
      const res = await put(config([d]));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/https:\/\//);
    } finally {
      process.env.SSO_ALLOW_HTTP_ISSUERS = '1';
      resetEnvCache();
    }
    expect(await (await db()).organizationSso.findUnique({ where: { organizationId: w.organizationId } })).toBeNull();
  });

  it('keeps the client secret encrypted and write-only, and returns what to register and publish', async () => {
    const w = await organizationWorld('SSO Secret');
    const domain = uniqueDomain('Secret').toUpperCase();
    const res = await call('PUT', sso(w.organizationId), w.owner.token, config([domain, domain.toLowerCase()], { default_role: 'billing' }));
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(issuer.clientSecret);
    expect(res.body).toEqual({
      organization_id: w.organizationId,
      issuer: issuer.issuer,
      client_id: issuer.clientId,
      client_secret_hint: `${issuer.clientSecret.slice(0, 3)}…${issuer.clientSecret.slice(-4)}`,
      redirect_uri: `${api.origin}/api/auth/callback/sso-${w.organizationId}`,
      default_role: 'billing',
      domains: [
        {
          domain: domain.toLowerCase(),
          verified: false,
          verified_at: null,
          verification: { type: 'TXT', name: `_switchboard.${domain.toLowerCase()}`, value: expect.stringMatching(/^switchboard-verification=[A-Za-z0-9_-]{32}$/) },
          last_checked_at: null,
          last_check_error: null,
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await (await db()).organizationSso.findUniqueOrThrow({ where: { organizationId: w.organizationId } });
    expect(row.encryptedClientSecret).not.toContain(issuer.clientSecret);
    expect(decryptSecret(row.encryptedClientSecret)).toBe(issuer.clientSecret);

    // A later PUT without client_secret keeps it; the audit log has both changes without the secret.
    const again = await call('PUT', sso(w.organizationId), w.owner.token, config([domain], { client_secret: undefined, client_id: 'renamed-client' }));
    expect(again.status).toBe(200);
    expect(again.body.client_id).toBe('renamed-client');
    expect(again.body.domains[0].verification).toEqual(res.body.domains[0].verification);
    const stored = await (await db()).organizationSso.findUniqueOrThrow({ where: { organizationId: w.organizationId } });
    expect(decryptSecret(stored.encryptedClientSecret)).toBe(issuer.clientSecret);
    const audit = await (await db()).auditLogEntry.findMany({ where: { accountId: w.organizationId, action: { startsWith: 'sso.' } }, orderBy: { createdAt: 'asc' }, select: { action: true, before: true, after: true } });
    expect(audit.map((a) => a.action)).toEqual(['sso.create', 'sso.update']);
    expect(JSON.stringify(audit)).not.toContain(issuer.clientSecret);
    expect(audit[1].before).toMatchObject({ client_id: issuer.clientId });
    expect(audit[1].after).toMatchObject({ client_id: 'renamed-client', default_role: 'member' });
  });

  it('verifies a domain only when its TXT record holds the token; a verified domain belongs to one organization', async () => {
    const w = await organizationWorld('SSO Verify');
    const domain = uniqueDomain('verify');
    const pending = uniqueDomain('pending');
    const put = await call('PUT', sso(w.organizationId), w.owner.token, config([domain, pending]));
    const record = put.body.domains.find((d: any) => d.domain === domain).verification;
    const verify = () => call('POST', `${sso(w.organizationId)}/verify`, w.owner.token);
    const state = (body: any, name: string) => body.domains.find((d: any) => d.domain === name);

    // No record at all: NXDOMAIN from the DNS server.
    let res = await verify();
    expect(res.status).toBe(200);
    expect(state(res.body, domain)).toMatchObject({ verified: false, last_check_error: `No TXT record found at _switchboard.${domain}`, last_checked_at: expect.any(String) });
    expect(dns.queries).toContain(`_switchboard.${domain}`);
    expect(await findSsoForEmail(`someone@${domain}`)).toBeNull();

    // Someone else's token (another organization's, or a guess) does not verify it.
    dns.txt.set(`_switchboard.${domain}`, ['switchboard-verification=not-the-token', 'v=spf1 -all']);
    res = await verify();
    expect(state(res.body, domain)).toMatchObject({ verified: false, last_check_error: expect.stringMatching(/do not include switchboard-verification=/) });

    // The record among others verifies it; the other domain stays pending.
    dns.txt.set(`_switchboard.${domain}`, ['v=spf1 -all', record.value]);
    res = await verify();
    expect(state(res.body, domain)).toMatchObject({ verified: true, verified_at: expect.any(String), last_check_error: null });
    expect(state(res.body, pending)).toMatchObject({ verified: false });
    expect(await findSsoForEmail(`Someone@${domain.toUpperCase()}`)).toMatchObject({ kind: 'organization', organizationId: w.organizationId, providerId: `sso-${w.organizationId}` });
    expect(await findSsoForEmail(`someone@${pending}`)).toBeNull();
    expect(await findSsoForEmail(`someone@sub.${domain}`)).toBeNull();

    // A verified domain stays verified when the configuration is replaced with it kept.
    res = await call('PUT', sso(w.organizationId), w.owner.token, config([domain], { client_secret: undefined }));
    expect(state(res.body, domain).verified).toBe(true);

    // Another organization claiming the same domain cannot take it, even with its own record published.
    const other = await testUser('other-owner');
    const otherOrg = await createOrganization({ userId: other.id, input: { name: 'SSO Squatter' } });
    const claim = await call('PUT', sso(otherOrg.id), other.token, config([domain]));
    expect(claim.status).toBe(200);
    dns.txt.set(`_switchboard.${domain}`, [record.value, claim.body.domains[0].verification.value]);
    const squat = await call('POST', `${sso(otherOrg.id)}/verify`, other.token);
    expect(squat.body.domains[0]).toMatchObject({ verified: false, last_check_error: `${domain} is already verified by another organization` });
    expect(await findSsoForEmail(`someone@${domain}`)).toMatchObject({ organizationId: w.organizationId });

    const audit = await (await db()).auditLogEntry.findMany({ where: { accountId: w.organizationId, action: 'sso.domain_verify' }, select: { targetId: true } });
    expect(audit).toEqual([{ targetId: domain }]);
  });

  it('DELETE removes the issuer and its domains, verified ones included', async () => {
    const w = await organizationWorld('SSO Delete');
    const domain = uniqueDomain('delete');
    const put = await call('PUT', sso(w.organizationId), w.owner.token, config([domain]));
    dns.txt.set(`_switchboard.${domain}`, [put.body.domains[0].verification.value]);
    expect((await call('POST', `${sso(w.organizationId)}/verify`, w.owner.token)).body.domains[0].verified).toBe(true);
    expect(await findSsoForEmail(`a@${domain}`)).not.toBeNull();

    const res = await call('DELETE', sso(w.organizationId), w.owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await call('GET', sso(w.organizationId), w.owner.token)).status).toBe(404);
    expect((await call('DELETE', sso(w.organizationId), w.owner.token)).status).toBe(404);
    expect((await call('POST', `${sso(w.organizationId)}/verify`, w.owner.token)).status).toBe(404);
    expect(await findSsoForEmail(`a@${domain}`)).toBeNull();
    expect(await (await db()).organizationSsoDomain.count({ where: { organizationId: w.organizationId } })).toBe(0);
  });
});
