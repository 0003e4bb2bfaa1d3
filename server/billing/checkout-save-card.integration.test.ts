// Checkout round two: the card is kept only with the buyer's consent (save_card → Stripe's
// payment_intent_data.setup_future_usage=off_session, or the sandbox page) and becomes the default payment
// method once paid; a cancelled checkout is ended at the provider and listed as cancelled; an abandoned one
// is left out of the history once it expires.
import { expect, it } from 'vitest';
import { cancelCheckout } from '@/server/billing/cancel-checkout';
import { completeCheckoutFromRedirect } from '@/server/billing/fulfil-checkout';
import { getSandboxCheckout } from '@/server/billing/sandbox/sandbox-checkout';
import { db } from '@/server/db';
import { balanceMicros, billingUser, submitSandboxForm, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

const start = async (h: ReturnType<typeof useBillingHarness>, key: string, body: Record<string, unknown>) => {
  const r = await h.json('POST', '/users/credits/checkout', key, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};

describeEachDatabase('checkout with Stripe: saved card, cancel, expiry', () => {
  const h = useBillingHarness('stripe');

  it('asks Stripe to keep the card only with consent, and saves it as the default once paid', async () => {
    const u = await billingUser();
    const plain = await start(h, u.key, { amount: 10 });
    expect(h.fake.get(plain.checkout_session_id)!.payment_intent_data.setup_future_usage).toBeUndefined();
    h.fake.completeCheckout(plain.checkout_session_id);
    await h.fake.settled();
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data).toBeNull();

    const kept = await start(h, u.key, { amount: 25, save_card: true, return_to: '/keys' });
    expect(h.fake.get(kept.checkout_session_id)!.payment_intent_data).toMatchObject({ setup_future_usage: 'off_session' });
    h.fake.completeCheckout(kept.checkout_session_id, { card: '5555555555554444' });
    await h.fake.settled();
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data).toMatchObject({ last4: '4444', brand: 'mastercard' });
    expect(await balanceMicros(u.user.personal_account_id)).toBe(35_000_000n);
    // The return page learns where to send the buyer and what was saved.
    expect(await completeCheckoutFromRedirect({ sessionId: kept.checkout_session_id })).toMatchObject({ status: 'succeeded', return_path: '/keys', card: { last4: '4444' } });
  });

  it('refuses a return_to that leaves the site', async () => {
    const u = await billingUser();
    for (const return_to of ['https://evil.example/', '//evil.example', 'billing']) {
      const r = await h.json('POST', '/users/credits/checkout', u.key, { amount: 10, return_to });
      expect(r.status, return_to).toBe(400);
    }
  });

  it('a cancelled checkout is expired at Stripe and listed as canceled; an expired one is hidden', async () => {
    const u = await billingUser();
    const other = await billingUser();
    const cancelled = await start(h, u.key, { amount: 10, return_to: '/billing' });
    await expect(cancelCheckout({ paymentId: cancelled.payment.id, userId: other.user.id })).rejects.toMatchObject({ code: 'not_found' });
    expect(await cancelCheckout({ paymentId: cancelled.payment.id, userId: u.user.id })).toEqual({ payment_id: cancelled.payment.id, status: 'canceled', return_path: '/billing' });
    expect(h.fake.get(cancelled.checkout_session_id)!.status).toBe('expired');
    await h.fake.settled(); // the expiry webhook that follows changes nothing
    // Again (a reload of the return page): nothing more happens.
    expect((await cancelCheckout({ paymentId: cancelled.payment.id, userId: u.user.id })).status).toBe('canceled');

    const abandoned = await start(h, u.key, { amount: 20 });
    h.fake.expireCheckout(abandoned.checkout_session_id);
    await h.fake.settled();
    const stale = await start(h, u.key, { amount: 30 });
    await (await db()).payment.update({ where: { id: stale.payment.id }, data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const open = await start(h, u.key, { amount: 40 });

    const list = await h.json('GET', '/users/me/payments', u.key);
    expect(list.body.data.map((p: any) => [p.id, p.status])).toEqual([
      [open.payment.id, 'pending'],
      [cancelled.payment.id, 'canceled'],
    ]);
    expect(list.body.data[1].failure_reason).toBe('checkout cancelled');
  });

  it('a checkout paid before the cancel arrives stays paid', async () => {
    const u = await billingUser();
    const co = await start(h, u.key, { amount: 10 });
    h.fake.autoDeliver = false;
    try {
      h.fake.completeCheckout(co.checkout_session_id);
      expect((await cancelCheckout({ paymentId: co.payment.id, userId: u.user.id })).status).toBe('succeeded');
      expect(await balanceMicros(u.user.personal_account_id)).toBe(10_000_000n);
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('a checkout completed with a delayed payment (a bank debit under way) is not cancelled by a late visit to the cancel page', async () => {
    const u = await billingUser();
    const co = await start(h, u.key, { amount: 10 });
    h.fake.completeCheckout(co.checkout_session_id, { delayed: true });
    await h.fake.settled();
    expect((await cancelCheckout({ paymentId: co.payment.id, userId: u.user.id })).status).toBe('pending');
    h.fake.settleDelayedPayment(co.checkout_session_id, false);
    await h.fake.settled();
    const p = (await h.json('GET', `/users/me/payments/${co.payment.id}`, u.key)).body;
    expect(p).toMatchObject({ status: 'failed', failure_reason: 'the delayed payment failed' });
  });
});

describeEachDatabase('checkout in the sandbox: saved card and cancel', () => {
  const h = useBillingHarness('sandbox');

  it('keeps the card typed on the sandbox page only with consent', async () => {
    const u = await billingUser();
    const plain = await start(h, u.key, { amount: 10 });
    expect((await submitSandboxForm(h, plain.url)).status).toBe(303);
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data).toBeNull();

    const kept = await start(h, u.key, { amount: 10, save_card: true });
    // The page restates the consent (app/(billing)/sandbox/checkout/[id]) from this view.
    expect(await getSandboxCheckout({ sessionId: kept.checkout_session_id })).toMatchObject({ saveCard: true, state: 'open' });
    expect((await submitSandboxForm(h, kept.url, { card_number: '5555 5555 5555 4444' })).status).toBe(303);
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data).toMatchObject({ last4: '4444' });
    expect(await completeCheckoutFromRedirect({ sessionId: kept.checkout_session_id })).toMatchObject({ status: 'succeeded', card: { last4: '4444' } });
    // Off-session charges work with it (auto top-up and "buy now" use this path).
    const bought = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 5 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(25_000_000n);
  });

  it('the Cancel button records a cancellation, shown in the history', async () => {
    const u = await billingUser();
    const co = await start(h, u.key, { amount: 10 });
    const res = await submitSandboxForm(h, co.url, { action: 'cancel' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toContain('canceled=1');
    const list = await h.json('GET', '/users/me/payments', u.key);
    expect(list.body.data).toEqual([expect.objectContaining({ id: co.payment.id, status: 'canceled', failure_reason: 'checkout cancelled' })]);
  });
});
