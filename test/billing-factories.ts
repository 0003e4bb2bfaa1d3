// Test support for billing: the REST API over HTTP with Stripe pointed at the local fake (or the sandbox),
// organizations made directly in the database (until the organizations service is used for this), and
// shortcuts such as saving a card the way a buyer would.
import { afterAll, beforeAll } from 'vitest';
import { resetPaymentProvider } from '@/server/billing/payment-provider';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { seedPlans } from '@/server/seed';
import { startApiServer, type ApiServer } from './api-server';
import { FakeStripe } from './fake-stripe';
import { fundedUser } from './gateway-harness';

export type BillingMode = 'stripe' | 'sandbox';

export interface BillingHarness {
  api: ApiServer;
  /** Only in 'stripe' mode. */
  fake: FakeStripe;
  call(method: string, path: string, key: string | null, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  json(method: string, path: string, key: string | null, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** Call inside a describe (after describeEachDatabase has opened the database). */
export function useBillingHarness(mode: BillingMode): BillingHarness {
  const h = {} as BillingHarness;
  beforeAll(async () => {
    h.api = await startApiServer();
    process.env.PUBLIC_URL = h.api.origin;
    if (mode === 'stripe') {
      h.fake = await FakeStripe.start();
      h.fake.webhookUrl = `${h.api.origin}/api/webhooks/stripe`;
      process.env.STRIPE_SECRET_KEY = 'sk_test_fake_switchboard';
      process.env.STRIPE_WEBHOOK_SECRET = h.fake.webhookSecret;
      process.env.STRIPE_API_URL = h.fake.url;
    } else {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_WEBHOOK_SECRET;
      delete process.env.STRIPE_API_URL;
    }
    resetEnvCache();
    resetPaymentProvider();
    await seedPlans();
  });
  afterAll(async () => {
    await h.fake?.close();
    await h.api?.close();
  });
  h.call = (method, path, key, body, headers = {}) =>
    fetch(`${h.api.origin}${path.startsWith('/api/') || path.startsWith('/sandbox/') ? '' : '/api/v1'}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  h.json = async (method, path, key, body, headers) => {
    const res = await h.call(method, path, key, body, headers);
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  return h;
}

export type TestUser = Awaited<ReturnType<typeof fundedUser>>;

export async function billingUser(usd = 0): Promise<TestUser> {
  return fundedUser(usd);
}

/** An organization (Account + Organization with the same id) with `owner` as OWNER and the given members. */
export async function organizationWith(owner: TestUser, members: { user: TestUser; role: 'OWNER' | 'ADMIN' | 'BILLING' | 'MEMBER' }[] = []) {
  const prisma = await db();
  const suffix = Math.random().toString(36).slice(2, 10);
  const account = await prisma.account.create({ data: { kind: 'ORGANIZATION', name: `Org ${suffix}` }, select: { id: true } });
  await prisma.organization.create({ data: { id: account.id, name: `Org ${suffix}`, slug: `org-${suffix}`, createdById: owner.user.id } });
  for (const m of [{ user: owner, role: 'OWNER' as const }, ...members]) {
    await prisma.membership.create({ data: { organizationId: account.id, userId: m.user.user.id, role: m.role } });
  }
  return { id: account.id };
}

/** Adds plain members (for the seat floor). */
export async function addMembers(organizationId: string, count: number) {
  const prisma = await db();
  for (let i = 0; i < count; i++) {
    const u = await fundedUser(0);
    await prisma.membership.create({ data: { organizationId, userId: u.user.id, role: 'MEMBER' } });
  }
}

/** Saves `card` as the default payment method through the setup-session endpoint, as a buyer would. */
export async function saveCard(h: BillingHarness, mode: BillingMode, base: string, key: string, card = '4242424242424242') {
  const setup = await h.json('POST', `${base}/payment-method/setup-session`, key);
  if (setup.status !== 201) throw new Error(`setup-session: ${setup.status} ${JSON.stringify(setup.body)}`);
  if (mode === 'stripe') {
    h.fake.completeCheckout(setup.body.checkout_session_id, { card });
    await h.fake.settled();
  } else {
    const res = await submitSandboxForm(h, setup.body.url, { card_number: card });
    if (res.status !== 303) throw new Error(`sandbox setup: ${res.status}`);
  }
  const method = await h.json('GET', `${base}/payment-method/default`, key);
  if (method.body?.data?.last4 !== card.replace(/\s/g, '').slice(-4)) throw new Error('the card was not saved');
  return method.body.data;
}

/** Posts the sandbox checkout form at `checkoutUrl` (defaults: a good card, action pay). */
export function submitSandboxForm(h: BillingHarness, checkoutUrl: string, fields: Record<string, string> = {}) {
  const path = new URL(checkoutUrl).pathname;
  const form = new URLSearchParams({ card_number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', action: 'pay', ...fields });
  return fetch(`${h.api.origin}${path}/submit`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
}

export async function balanceMicros(accountId: string): Promise<bigint> {
  const prisma = await db();
  const a = await prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { paidMicros: true, promoMicros: true } });
  return a.paidMicros + a.promoMicros;
}

/** Polls until `check` passes (webhooks and auto top-ups run after the call that caused them). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
