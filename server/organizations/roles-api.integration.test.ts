// The organization roles as a client meets them, through HTTP: what GET …/members/available-roles says each role
// may do is what README's roles table says, and an admin is refused what the matrix withholds (paying, plans)
// while the rest of administration works.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PERMISSIONS } from '@/server/organizations/permissions';
import { seedPlans } from '@/server/seed';
import { jsonClient, organizationWorld, type OrganizationWorld } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

/** README's roles table: role → the permissions its last column lists ("every permission" for the owner). */
function readmeRoles(): Record<string, string[]> {
  const lines = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8').split('\n');
  const at = lines.findIndex((l) => /^\| role \| may \| permissions \|$/.test(l));
  expect(at, "README's roles table has a permissions column").toBeGreaterThan(-1);
  const out: Record<string, string[]> = {};
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const role = cells[0].replace(/`/g, '');
    out[role] = cells[2] === 'every permission' ? Object.keys(PERMISSIONS) : [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  }
  return out;
}

describeEachDatabase('organization roles through HTTP', () => {
  let api: ApiServer;
  let w: OrganizationWorld;
  const call = jsonClient(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
    await seedPlans();
    w = await organizationWorld('Roles Co');
  });
  afterAll(() => api?.close());

  it("available-roles lists for each role the permissions README's table gives it", async () => {
    const res = await call('GET', `/organizations/${w.organizationId}/members/available-roles`, w.member.token);
    expect(res.status).toBe(200);
    const served = Object.fromEntries(res.body.data.map((r: { role: string; permissions: string[] }) => [r.role, [...r.permissions].sort()]));
    const documented = Object.fromEntries(Object.entries(readmeRoles()).map(([role, p]) => [role, [...p].sort()]));
    expect(documented).toEqual(served);
    const admin = res.body.data.find((r: { role: string }) => r.role === 'admin');
    expect(admin.permissions).toEqual(expect.arrayContaining(['billing:read', 'members:manage', 'org:update', 'audit:read']));
    expect(admin.permissions).not.toEqual(expect.arrayContaining(['billing:manage']));
    expect(admin.permissions).not.toEqual(expect.arrayContaining(['plan:manage']));
    expect(admin.description).toMatch(/paying and plans are for owners and billing/);
  });

  it('an admin reads billing but is refused paying and plan changes (403); the billing role and the owner are not', async () => {
    const org = `/organizations/${w.organizationId}`;
    for (const read of ['/payments', '/auto-top-up', '/balance', '/plan/history']) {
      expect((await call('GET', `${org}${read}`, w.admin.token)).status, `GET ${read}`).toBe(200);
    }
    const spend: [string, string, unknown][] = [
      ['PUT', '/auto-top-up', { enabled: false }],
      ['POST', '/credits/purchase', { amount: 10 }],
      ['POST', '/credits/checkout', { amount: 10 }],
      ['POST', '/payment-method/setup-session', {}],
      ['POST', '/plan', { plan_id: 'teams' }],
      ['PUT', '/plan/seats', { seats: 5 }],
    ];
    for (const [method, p, body] of spend) {
      const res = await call(method, `${org}${p}`, w.admin.token, body);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(res.body.error.metadata.error_type).toBe('forbidden');
    }
    expect((await call('POST', '/promotions/redeem', w.admin.token, { code: 'NOPE', account_id: w.organizationId })).status).toBe(403);
    // What the role may (settings) it still does; deleting the organization stays the owner's.
    expect((await call('PUT', org, w.admin.token, { name: 'Roles Co 2' })).status).toBe(200);
    expect((await call('DELETE', org, w.admin.token)).status).toBe(403);
    for (const who of [w.billing, w.owner]) expect((await call('PUT', `${org}/auto-top-up`, who.token, { enabled: false })).status).toBe(200);
  });
});
