// Links the server builds come from PUBLIC_URL, from forwarded headers only when the operator sets
// TRUST_PROXY=1, and otherwise from the address it listens on — never from a Host or X-Forwarded-Host a
// client chose. Through HTTP: device verification links, invite links and checkout URLs.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { resetPaymentProvider } from '@/server/billing/payment-provider';
import { resetEnvCache } from '@/server/env';
import { createOrganization } from '@/server/organizations/create-organization';
import { testUser, type TestUser } from '@/test/accounts';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';

const HOSTILE = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
const SETTINGS = ['PUBLIC_URL', 'TRUST_PROXY', 'PORT', 'HOST', 'STRIPE_SECRET_KEY'] as const;

/** node:http rather than fetch: fetch does not let a client choose its Host header, an attacker does. */
function post(origin: string, path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: any }> {
  const url = new URL(`/api/v1${path}`, origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describeEachDatabase('public origin of the links the server builds', () => {
  let api: ApiServer;
  let owner: TestUser;
  let organizationId: string;
  const saved = Object.fromEntries(SETTINGS.map((k) => [k, process.env[k]]));

  function configure(settings: Partial<Record<(typeof SETTINGS)[number], string>>) {
    for (const k of SETTINGS) delete process.env[k];
    Object.assign(process.env, { PORT: '4321', ...settings });
    resetEnvCache();
    resetPaymentProvider();
  }

  async function links(headers: Record<string, string>) {
    const auth = { authorization: `Bearer ${owner.token}` };
    const device = await post(api.origin, '/auth/device/code', headers, { client_name: 'CLI' });
    const invite = await post(api.origin, `/organizations/${organizationId}/invites`, { ...headers, ...auth }, { emails: [`i-${Math.random()}@example.com`], role: 'member' });
    const checkout = await post(api.origin, '/users/credits/checkout', { ...headers, ...auth }, { amount: 10 });
    expect([device.status, invite.status, checkout.status]).toEqual([200, 200, 201]);
    return [device.body.verification_uri, invite.body.data[0].link, checkout.body.url].map((u: string) => new URL(u).origin);
  }

  beforeAll(async () => {
    api = await startApiServer();
    owner = await testUser('origin');
    organizationId = (await createOrganization({ userId: owner.id, input: { name: 'Links' } })).id;
  });
  afterEach(() => configure({}));
  afterAll(async () => {
    for (const k of SETTINGS) if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
    resetEnvCache();
    resetPaymentProvider();
    await api?.close();
  });

  it('by default ignores Host and X-Forwarded-Host and uses the listening address', async () => {
    configure({});
    expect(await links(HOSTILE)).toEqual(Array(3).fill('http://localhost:4321'));
    configure({ HOST: '10.1.2.3' });
    expect(await links(HOSTILE)).toEqual(Array(3).fill('http://10.1.2.3:4321'));
  });

  it('with TRUST_PROXY=1 follows the proxy\'s X-Forwarded-Host and X-Forwarded-Proto, then Host', async () => {
    configure({ TRUST_PROXY: '1' });
    expect(await links({ host: 'internal:3000', 'x-forwarded-host': 'sb.example.com, proxy.local', 'x-forwarded-proto': 'https' })).toEqual(Array(3).fill('https://sb.example.com'));
    expect(await links({ host: 'sb.example.com:8080' })).toEqual(Array(3).fill('http://sb.example.com:8080'));
    // A forwarded host that is not a host name cannot smuggle a path or credentials into links.
    expect(await links({ host: 'internal', 'x-forwarded-host': 'evil.example/@x' })).toEqual(Array(3).fill('http://localhost:4321'));
  });

  it('PUBLIC_URL wins over everything', async () => {
    configure({ PUBLIC_URL: 'https://switchboard.example.org/', TRUST_PROXY: '1' });
    expect(await links(HOSTILE)).toEqual(Array(3).fill('https://switchboard.example.org'));
  });
});
