// A direct purchase whose charge got no answer from Stripe (here: Stripe unreachable) stays PENDING with no Stripe id;
// a client that never repeats it left it pending for good. The sweeper's step marks it FAILED after 15 minutes, with
// a reason that says nothing was charged; the same idempotency key then gets a 402 that says to buy again, and a
// payment that Stripe answered (or a younger one) is left alone. Through HTTP, with the fake Stripe.
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { resetEnvCache } from '@/server/env';
import { balanceMicros, billingUser, saveCard, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';
import { resetPaymentProvider } from './payment-provider';
import { failUnansweredPurchases, UNANSWERED_AFTER_MS } from './fail-unanswered-purchases';

describeEachDatabase('direct purchases that Stripe never answered', () => {
  const h = useBillingHarness('stripe');

  /** Stripe's API unreachable while `fn` runs (connection refused, after the client's own retries). */
  async function withStripeDown<T>(fn: () => Promise<T>): Promise<T> {
    const url = process.env.STRIPE_API_URL;
    process.env.STRIPE_API_URL = 'http://127.0.0.1:9';
    resetEnvCache();
    resetPaymentProvider();
    try {
      return await fn();
    } finally {
      process.env.STRIPE_API_URL = url;
      resetEnvCache();
      resetPaymentProvider();
    }
  }

  it('marks the payment failed after 15 minutes, nothing credited; the key then says to buy again', async () => {
    const u = await billingUser();
    await saveCard(h, 'stripe', '/users/me', u.key);
    const lost = await withStripeDown(() => h.json('POST', '/users/me/credits/purchase', u.key, { amount: 20 }, { 'idempotency-key': 'lost-order' }));
    expect(lost.status).toBeGreaterThanOrEqual(500);
    const prisma = await db();
    const pending = await prisma.payment.findUniqueOrThrow({ where: { idempotencyKey: `purchase:${u.user.personal_account_id}:lost-order` } });
    expect(pending).toMatchObject({ status: 'PENDING', providerPaymentId: null });

    // A purchase Stripe answered, and one too young to give up on, are left alone.
    const answered = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 5 });
    expect(answered.status).toBe(200);
    const young = await withStripeDown(() => h.json('POST', '/users/me/credits/purchase', u.key, { amount: 7 }, { 'idempotency-key': 'young-order' }));
    expect(young.status).toBeGreaterThanOrEqual(500);

    const sixteenMinutesAgo = new Date(Date.now() - UNANSWERED_AFTER_MS - 60_000);
    await prisma.payment.update({ where: { id: pending.id }, data: { createdAt: sixteenMinutesAgo } });
    await prisma.payment.update({ where: { id: answered.body.payment.id }, data: { createdAt: sixteenMinutesAgo } });
    expect(await failUnansweredPurchases()).toBe(1);
    expect(await failUnansweredPurchases()).toBe(0);

    const got = await h.json('GET', `/users/me/payments/${pending.id}`, u.key);
    expect(got.status).toBe(200);
    expect(got.body.data ?? got.body).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/no answer from the payment provider.*nothing was charged/) });
    expect((await prisma.payment.findUniqueOrThrow({ where: { idempotencyKey: `purchase:${u.user.personal_account_id}:young-order` } })).status).toBe('PENDING');
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: answered.body.payment.id } })).status).toBe('SUCCEEDED');
    expect(await balanceMicros(u.user.personal_account_id)).toBe(5_000_000n);

    const again = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 20 }, { 'idempotency-key': 'lost-order' });
    expect(again.status).toBe(402);
    expect(again.body.error.message).toMatch(/did not answer this purchase in time; nothing was charged\. Buy again with a new idempotency key/);
    expect(again.body.error.metadata).toMatchObject({ reason: 'provider_unavailable', payment_id: pending.id });
    const events = await prisma.paymentEvent.findMany({ where: { paymentId: pending.id }, orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => e.toStatus)).toEqual(['PENDING', 'FAILED']);
  }, 60_000);
});
