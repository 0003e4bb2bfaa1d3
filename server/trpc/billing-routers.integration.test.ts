// Billing, promotions, plans and sessions through createCaller, on the sandbox payment provider: the
// console's buy-credits flow (checkout → hosted page → balance), saved cards, auto top-up, plans and seats.
import { beforeAll, expect, it } from 'vitest';
import { issueAuthToken } from '@/server/auth/auth-tokens';
import { resetPaymentProvider } from '@/server/billing/payment-provider';
import { submitSandboxCheckout } from '@/server/billing/sandbox/sandbox-checkout';
import { resetEnvCache } from '@/server/env';
import { createPromotion } from '@/server/promotions/create-promotion';
import { seedPlans } from '@/server/seed';
import { organizationWorld, testUser, type TestUser } from '@/test/accounts';
import { describeEachDatabase } from '@/test/db';
import { createCaller } from './root';

const ORIGIN = 'https://console.example';
const callerFor = (u: Pick<TestUser, 'id' | 'personalAccountId'>, accountId = u.personalAccountId) =>
  createCaller({ principal: { kind: 'session', userId: u.id, accountId }, origin: ORIGIN });

/** Completes a hosted sandbox page the way the buyer's browser would. */
async function payOnSandbox(url: string) {
  const sessionId = decodeURIComponent(new URL(url).pathname.split('/').at(-1)!);
  return submitSandboxCheckout({ sessionId, action: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', origin: ORIGIN });
}

describeEachDatabase('tRPC billing routers', () => {
  beforeAll(async () => {
    delete process.env.STRIPE_SECRET_KEY;
    resetEnvCache();
    resetPaymentProvider();
    await seedPlans();
  });

  it('buys credits through checkout, saves a card, buys with it and sets up auto top-up', async () => {
    const u = await testUser('buyer');
    const c = callerFor(u);
    expect(await c.billing.balance()).toMatchObject({ balance: 0, isDepleted: true });
    await expect(c.billing.checkout({ amount: 1 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    const checkout = await c.billing.checkout({ amount: 25 });
    expect(checkout.url).toMatch(/\/sandbox\/checkout\//);
    expect(await payOnSandbox(checkout.url)).toEqual({ redirect: expect.stringMatching(/^https:\/\/console\.example\/billing\/return\?session_id=/) });
    expect(await c.billing.balance()).toMatchObject({ balance: 25, paid: 25, promotional: 0 });
    const payments = await c.billing.payments({});
    expect(payments.data[0]).toMatchObject({ status: 'succeeded', amount: 25, kind: 'checkout' });
    expect((await c.billing.payment({ id: payments.data[0].id })).events.map((e) => e.to_status)).toContain('succeeded');

    await expect(c.billing.purchase({ amount: 10 })).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    expect((await c.billing.paymentMethod()).data).toBeNull();
    const setup = await c.billing.setupSession();
    await payOnSandbox(setup.url);
    expect((await c.billing.paymentMethod()).data).toMatchObject({ last4: '4242' });
    const bought = await c.billing.purchase({ amount: 10, idempotency_key: 'click-1' });
    expect(bought.balance.balance).toBe(35);

    const topUp = await c.billing.updateAutoTopUp({ enabled: true, threshold: 5, amount: 20 });
    expect(topUp).toMatchObject({ enabled: true, threshold: 5, amount: 20, payment_method: { last4: '4242' } });
  });

  it('shows members only whether credit remains, and refuses them billing actions', async () => {
    const w = await organizationWorld('Billing Co');
    const member = callerFor(w.member, w.organizationId);
    expect(await member.billing.balance()).toEqual({ amounts: false, account_id: w.organizationId, currency: 'usd', isDepleted: true });
    await expect(member.billing.payments({})).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(member.billing.checkout({ amount: 10 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const admin = callerFor(w.admin, w.organizationId);
    expect(await admin.billing.payments({})).toMatchObject({ data: [] });
    await expect(admin.billing.checkout({ amount: 10 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(w.billing, w.organizationId).billing.checkout({ amount: 10 })).resolves.toMatchObject({ url: expect.any(String) });
  });

  it('redeems a promotion code for the active account', async () => {
    const w = await organizationWorld('Promo Co');
    await createPromotion({ code: 'WELCOME5', name: 'Welcome', amountMicros: 5_000_000n });
    const billing = callerFor(w.billing, w.organizationId);
    const grant = await billing.promotions.redeem({ code: 'welcome5' });
    expect(grant).toMatchObject({ account_id: w.organizationId, amount: 5, status: 'active' });
    expect((await billing.promotions.list()).map((g) => g.code)).toEqual(['WELCOME5']);
    expect(await billing.billing.balance()).toMatchObject({ promotional: 5 });
    await expect(billing.promotions.redeem({ code: 'WELCOME5' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(callerFor(w.member, w.organizationId).promotions.redeem({ code: 'WELCOME5' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('subscribes an organization to a plan, changes seats, cancels and keeps the history', async () => {
    const w = await organizationWorld('Plan Co');
    const owner = callerFor(w.owner, w.organizationId);
    expect((await owner.plans.list()).data.map((p) => p.id)).toEqual(['free', 'teams']);
    expect(await owner.plans.current()).toMatchObject({ plan: { id: 'free' }, subscription: null, member_count: 4 });
    await expect(owner.plans.subscribe({ plan_id: 'teams' })).rejects.toMatchObject({ code: 'PAYMENT_REQUIRED' });
    await payOnSandbox((await owner.billing.setupSession()).url);
    const subscribed = await owner.plans.subscribe({ plan_id: 'teams', seats: 5 });
    expect(subscribed).toMatchObject({ plan: { id: 'teams' }, subscription: { seats: 5, status: 'active' } });
    await expect(owner.plans.updateSeats({ seats: 3 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect((await owner.plans.updateSeats({ seats: 6 })).subscription?.seats).toBe(6);
    expect((await owner.plans.cancel({ plan_id: 'teams' })).subscription?.cancel_at_period_end).toBe(true);
    expect((await owner.plans.history({})).data.length).toBeGreaterThanOrEqual(2);
    await expect(callerFor(w.admin, w.organizationId).plans.updateSeats({ seats: 7 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(callerFor(w.owner).plans.current()).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it("lists and revokes the user's editor and CLI sessions", async () => {
    const u = await testUser('sessions');
    await issueAuthToken({ userId: u.id, deviceName: 'VS Code on laptop', clientKind: 'editor' });
    const c = callerFor(u);
    const list = await c.sessions.list();
    expect(list.map((t) => t.device_name).sort()).toEqual(['VS Code on laptop', 'sessions test']);
    await c.sessions.revoke({ id: list[0].id });
    expect(await c.sessions.list()).toHaveLength(1);
    const other = await testUser('other');
    await expect(callerFor(other).sessions.revoke({ id: list[1].id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
