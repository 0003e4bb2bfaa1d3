// The authorization matrix of the account endpoints (users, auth tokens, organizations, members,
// invites): every route, called through HTTP with no credential, as a stranger, a member, a billing
// manager, an admin and an owner. Policy: no credential → 401; another tenant's organization → 404;
// a role without the permission → 403. Every error has the spec's body; nothing answers 500.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueAuthToken } from '@/server/auth/auth-tokens';
import { startDeviceAuthorization } from '@/server/auth/start-device-authorization';
import { createInvites } from '@/server/invites/create-invites';
import { openApiDocument } from '@/server/http/openapi/document';
import { createOrganization } from '@/server/organizations/create-organization';
import { CURRENT_TERMS_VERSION } from '@/server/users/terms';
import { addMember, jsonClient, organizationWorld, PERSONAS, testUser, uniqueEmail, type OrganizationWorld, type Persona } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

type Who = 'none' | Persona;
const WHO: Who[] = ['none', ...PERSONAS];
type Extra = Record<string, string>;

interface Row {
  method: string;
  path: (w: OrganizationWorld, x: Extra) => string;
  body?: (w: OrganizationWorld, x: Extra) => unknown;
  /** A new organization world for every call (the call destroys or changes what others rely on). */
  fresh?: boolean;
  prepare?: (w: OrganizationWorld) => Promise<Extra>;
  /** Expected status for: none, stranger, member, billing, admin, owner. */
  expect: [number, number, number, number, number, number];
}

const org = (w: OrganizationWorld) => `/organizations/${w.organizationId}`;
const addTarget = async (w: OrganizationWorld) => {
  const target = await testUser('target');
  await addMember(w.organizationId, target.id, 'MEMBER');
  return { targetId: target.id };
};

const rows: Record<string, Row> = {
  'POST /auth/sign-up': { method: 'POST', path: () => '/auth/sign-up', body: () => ({ email: uniqueEmail('signup'), password: 'correct horse', name: 'New' }), expect: [201, 201, 201, 201, 201, 201] },
  'POST /auth/device/code': { method: 'POST', path: () => '/auth/device/code', body: () => ({ client_name: 'CLI' }), expect: [200, 200, 200, 200, 200, 200] },
  'POST /auth/device/token': {
    method: 'POST',
    path: () => '/auth/device/token',
    prepare: async () => ({ code: (await startDeviceAuthorization({ input: {}, origin: 'http://x' })).device_code }),
    body: (_w, x) => ({ device_code: x.code }),
    expect: [428, 428, 428, 428, 428, 428],
  },
  'GET /auth/tokens': { method: 'GET', path: () => '/auth/tokens', expect: [401, 200, 200, 200, 200, 200] },
  'DELETE /auth/tokens/{id}': {
    method: 'DELETE',
    path: (_w, x) => `/auth/tokens/${x.tokenId}`,
    prepare: async (w) => ({ tokenId: (await issueAuthToken({ userId: w.owner.id, deviceName: 'spare', clientKind: 'cli' })).authToken.id }),
    expect: [401, 404, 404, 404, 404, 200],
  },
  'GET /users/me': { method: 'GET', path: () => '/users/me', expect: [401, 200, 200, 200, 200, 200] },
  'PATCH /users/me': { method: 'PATCH', path: () => '/users/me', body: () => ({ name: 'Renamed' }), expect: [401, 200, 200, 200, 200, 200] },
  'DELETE /users/me': { method: 'DELETE', path: () => '/users/me', fresh: true, expect: [401, 200, 200, 200, 200, 409] },
  'POST /users/me/accept-terms': { method: 'POST', path: () => '/users/me/accept-terms', body: () => ({ version: CURRENT_TERMS_VERSION }), expect: [401, 200, 200, 200, 200, 200] },
  'GET /users/me/remote-config': { method: 'GET', path: () => '/users/me/remote-config', expect: [401, 200, 200, 200, 200, 200] },
  'PUT /users/active-account': { method: 'PUT', path: () => '/users/active-account', body: (w) => ({ account_id: w.organizationId }), expect: [401, 403, 200, 200, 200, 200] },
  'POST /organizations': { method: 'POST', path: () => '/organizations', body: () => ({ name: 'Another' }), expect: [401, 201, 201, 201, 201, 201] },
  'GET /organizations/{id}': { method: 'GET', path: org, expect: [401, 404, 200, 200, 200, 200] },
  'PUT /organizations/{id}': { method: 'PUT', path: org, body: () => ({ name: 'Acme 2' }), expect: [401, 404, 403, 403, 200, 200] },
  'DELETE /organizations/{id}': { method: 'DELETE', path: org, fresh: true, expect: [401, 404, 403, 403, 403, 200] },
  'GET /organizations/{id}/remote-config': { method: 'GET', path: (w) => `${org(w)}/remote-config`, expect: [401, 404, 200, 200, 200, 200] },
  'GET /organizations/{id}/api-keys': { method: 'GET', path: (w) => `${org(w)}/api-keys`, expect: [401, 404, 200, 200, 200, 200] },
  'GET /organizations/{id}/members': { method: 'GET', path: (w) => `${org(w)}/members`, expect: [401, 404, 200, 200, 200, 200] },
  'DELETE /organizations/{id}/members': {
    method: 'DELETE',
    path: (w) => `${org(w)}/members`,
    prepare: addTarget,
    body: (_w, x) => ({ member_ids: [x.targetId] }),
    expect: [401, 404, 403, 403, 200, 200],
  },
  'GET /organizations/{id}/members/available-roles': { method: 'GET', path: (w) => `${org(w)}/members/available-roles`, expect: [401, 404, 200, 200, 200, 200] },
  'PUT /organizations/{id}/members/{memberId}/role': {
    method: 'PUT',
    path: (w, x) => `${org(w)}/members/${x.targetId}/role`,
    prepare: addTarget,
    body: () => ({ role: 'billing' }),
    expect: [401, 404, 403, 403, 200, 200],
  },
  'GET /organizations/{id}/invites': { method: 'GET', path: (w) => `${org(w)}/invites`, expect: [401, 404, 403, 200, 200, 200] },
  'POST /organizations/{id}/invites': { method: 'POST', path: (w) => `${org(w)}/invites`, body: () => ({ emails: [uniqueEmail('invitee')], role: 'member' }), expect: [401, 404, 403, 403, 200, 200] },
  'GET /organizations/{id}/invites/count': { method: 'GET', path: (w) => `${org(w)}/invites/count`, expect: [401, 404, 403, 200, 200, 200] },
  'DELETE /organizations/{id}/invites/{inviteId}': {
    method: 'DELETE',
    path: (w, x) => `${org(w)}/invites/${x.inviteId}`,
    prepare: async (w) => {
      const r = await createInvites({ organizationId: w.organizationId, actor: { userId: w.owner.id, role: 'OWNER' }, input: { emails: [uniqueEmail('revokee')] }, origin: 'http://x' });
      return { inviteId: (r.data[0] as { invite: { id: string } }).invite.id };
    },
    expect: [401, 404, 403, 403, 200, 200],
  },
  'POST /invites/accept': {
    method: 'POST',
    path: () => '/invites/accept',
    // An invite for the stranger into a new organization: only the stranger's email matches.
    prepare: async (w) => {
      const other = await createOrganization({ userId: w.owner.id, input: { name: 'Other' } });
      const r = await createInvites({ organizationId: other.id, actor: { userId: w.owner.id, role: 'OWNER' }, input: { emails: [w.stranger.email] }, origin: 'http://x' });
      return { token: (r.data[0] as { link: string }).link.split('/invite/')[1] };
    },
    body: (_w, x) => ({ token: x.token }),
    expect: [401, 200, 403, 403, 403, 403],
  },
};

describeEachDatabase('account endpoints: authorization matrix', () => {
  let api: ApiServer;
  let shared: OrganizationWorld;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
    shared = await organizationWorld();
  });
  afterAll(() => api?.close());

  it('every route of the matrix is declared in the OpenAPI document', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const missing = Object.keys(rows).filter((name) => {
      const [method, path] = name.split(' ');
      return !paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  for (const [name, row] of Object.entries(rows)) {
    it(name, async () => {
      const mismatches: string[] = [];
      for (const [i, who] of WHO.entries()) {
        const w = row.fresh ? await organizationWorld() : shared;
        const x = row.prepare ? await row.prepare(w) : {};
        const token = who === 'none' ? null : w[who].token;
        const res = await call(row.method, row.path(w, x), token, row.body?.(w, x));
        if (res.status !== row.expect[i]) mismatches.push(`${who}: expected ${row.expect[i]}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (res.status >= 400) {
          expect(res.body, `${name} as ${who}: spec error body`).toMatchObject({ error: { message: expect.any(String), metadata: expect.any(Object) } });
          expect(['number', 'string']).toContain(typeof res.body.error.code);
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});
