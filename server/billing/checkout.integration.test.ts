// Buying credits through Stripe Checkout (the local fake), through HTTP: credit only from a signed webhook
// (or the success redirect), exactly once whatever the order or repetition of events; forged or stale
// signatures change nothing.
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { balanceMicros, billingUser, eventually, organizationWith, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('credit checkout with Stripe', () => {
  const h = useBillingHarness('stripe');

  const startCheckout = async (key: string, amount = 25, path = '/users/credits/checkout') => {
    const r = await h.json('POST', path, key, { amount });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  it('creates a Checkout Session and credits once when the signed webhook arrives, however often', async () => {
    const u = await billingUser();
    const accountId = u.user.personal_account_id;
    const co = await startCheckout(u.key, 25);
    expect(co.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    expect(co.payment).toMatchObject({ status: 'pending', amount: 25, amount_cents: 2500, credit: 25, kind: 'checkout', provider: 'stripe' });
    const session = h.fake.get(co.checkout_session_id)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 2500, client_reference_id: co.payment.id, metadata: { payment_id: co.payment.id, account_id: accountId } });
    expect(session.customer).toMatch(/^cus_/);
    expect(await balanceMicros(accountId)).toBe(0n);

    h.fake.completeCheckout(co.checkout_session_id);
    await h.fake.settled();
    expect(await balanceMicros(accountId)).toBe(25_000_000n);

    // Stripe retries the same event; we also saw payment_intent.succeeded for the same payment.
    const completed = h.fake.eventsOfType('checkout.session.completed').find((e) => e.data.object.id === co.checkout_session_id)!;
    for (let i = 0; i < 3; i++) {
      const again = await h.fake.deliver(completed);
      expect(again).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    }
    expect(await balanceMicros(accountId)).toBe(25_000_000n);

    const details = await h.json('GET', `/users/me/payments/${co.payment.id}`, u.key);
    expect(details.body).toMatchObject({ status: 'succeeded', provider_payment_id: expect.stringMatching(/^pi_/), credited_at: expect.any(String) });
    expect(details.body.events.map((e: any) => `${e.from_status}->${e.to_status}`)).toEqual(['null->pending', 'pending->succeeded']);
    expect(details.body.ledger_entries).toEqual([expect.objectContaining({ kind: 'purchase', amount: 25, balance_after: 25 })]);
    const prisma = await db();
    expect(await prisma.ledgerEntry.count({ where: { accountId, kind: 'PURCHASE' } })).toBe(1);
  });

  it('refuses forged, tampered and stale signatures with 400 and changes nothing', async () => {
    const u = await billingUser();
    const co = await startCheckout(u.key, 10);
    h.fake.autoDeliver = false;
    try {
      const completed = h.fake.completeCheckout(co.checkout_session_id).find((e) => e.type === 'checkout.session.completed')!;
      const prisma = await db();
      const before = await prisma.webhookEvent.count();
      const forged = await h.fake.deliver(completed, { secret: 'whsec_attacker' });
      expect(forged.status).toBe(400);
      expect(forged.body.error.message).toMatch(/signature/i);
      const payload = JSON.stringify(completed);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: h.fake.webhookSecret });
      const tampered = await h.fake.deliver(completed, { signature: header, payload: payload.replace('"paid"', '"paid" ') });
      expect(tampered.status).toBe(400);
      const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret: h.fake.webhookSecret, timestamp: Math.floor(Date.now() / 1000) - 301 });
      expect((await h.fake.deliver(completed, { signature: stale, payload })).status).toBe(400);
      expect((await h.call('POST', '/api/webhooks/stripe', null, payload)).status).toBe(400); // no signature at all
      expect(await prisma.webhookEvent.count()).toBe(before);
      expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
      // The genuine delivery still works afterwards.
      expect((await h.fake.deliver(completed)).status).toBe(200);
      expect(await balanceMicros(u.user.personal_account_id)).toBe(10_000_000n);
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('survives out-of-order delayed payments: async_payment_succeeded before completed credits once', async () => {
    const u = await billingUser();
    const co = await startCheckout(u.key, 40);
    h.fake.autoDeliver = false;
    try {
      const first = h.fake.completeCheckout(co.checkout_session_id, { delayed: true });
      const later = h.fake.settleDelayedPayment(co.checkout_session_id, true);
      for (const e of [...later].reverse()) expect((await h.fake.deliver(e)).status).toBe(200);
      expect(await balanceMicros(u.user.personal_account_id)).toBe(40_000_000n);
      for (const e of first) expect((await h.fake.deliver(e)).status).toBe(200); // the "unpaid" completion, late
      for (const e of later) await h.fake.deliver(e);
      expect(await balanceMicros(u.user.personal_account_id)).toBe(40_000_000n);
      const status = await h.json('GET', `/users/me/payments/${co.payment.id}/status`, u.key);
      expect(status.body).toMatchObject({ status: 'succeeded', credited: true });
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('records a failed delayed payment and an expired session without credit', async () => {
    const u = await billingUser();
    const a = await startCheckout(u.key, 30);
    h.fake.completeCheckout(a.checkout_session_id, { delayed: true });
    await h.fake.settled();
    expect((await h.json('GET', `/users/me/payments/${a.payment.id}/status`, u.key)).body.status).toBe('pending');
    h.fake.settleDelayedPayment(a.checkout_session_id, false);
    await h.fake.settled();
    const failed = await h.json('GET', `/users/me/payments/${a.payment.id}`, u.key);
    expect(failed.body).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/delayed payment failed/) });

    const b = await startCheckout(u.key, 30);
    h.fake.expireCheckout(b.checkout_session_id);
    await h.fake.settled();
    expect((await h.json('GET', `/users/me/payments/${b.payment.id}/status`, u.key)).body.status).toBe('canceled');
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
  });

  it('credits from the success redirect when the webhook has not arrived, and the late webhook is a no-op', async () => {
    const u = await billingUser();
    const co = await startCheckout(u.key, 15);
    h.fake.autoDeliver = false;
    try {
      const events = h.fake.completeCheckout(co.checkout_session_id);
      const status = await h.json('GET', `/users/me/payments/${co.payment.id}/status`, u.key);
      expect(status.body).toMatchObject({ status: 'succeeded', credited: true });
      for (const e of events) expect((await h.fake.deliver(e)).status).toBe(200);
      expect(await balanceMicros(u.user.personal_account_id)).toBe(15_000_000n);
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('validates the amount ($5–$10,000, cents) and needs a credential', async () => {
    const u = await billingUser();
    for (const amount of [4.99, 10_000.01, 12.345, -5, '20']) {
      const r = await h.json('POST', '/users/credits/checkout', u.key, { amount });
      expect(r.status, String(amount)).toBe(400);
    }
    expect((await h.json('POST', '/users/credits/checkout', u.key, { amount: 10_000 })).status).toBe(201);
    expect((await h.json('POST', '/users/credits/checkout', null, { amount: 10 })).status).toBe(401);
  });

  it('lets only owners and billing managers buy for an organization; lists and pages its payments', async () => {
    const owner = await billingUser();
    const billing = await billingUser();
    const member = await billingUser();
    const admin = await billingUser();
    const stranger = await billingUser();
    const org = await organizationWith(owner, [{ user: billing, role: 'BILLING' }, { user: member, role: 'MEMBER' }, { user: admin, role: 'ADMIN' }]);
    const path = `/organizations/${org.id}/credits/checkout`;
    expect((await h.json('POST', path, member.key, { amount: 10 })).status).toBe(403);
    expect((await h.json('POST', path, admin.key, { amount: 10 })).status).toBe(403);
    expect((await h.json('POST', path, stranger.key, { amount: 10 })).status).toBe(404);
    const ids: string[] = [];
    for (const [key, amount] of [[owner.key, 10], [billing.key, 20], [owner.key, 30]] as const) ids.push((await startCheckout(key, amount, path)).payment.id);
    h.fake.completeCheckout(h.fake.list('cs_').find((s) => s.client_reference_id === ids[1])!.id);
    await eventually(async () => expect(await balanceMicros(org.id)).toBe(20_000_000n));

    expect((await h.json('GET', `/organizations/${org.id}/payments`, member.key)).status).toBe(403);
    const page1 = await h.json('GET', `/organizations/${org.id}/payments?limit=2`, admin.key);
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((p: any) => p.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await h.json('GET', `/organizations/${org.id}/payments?limit=2&cursor=${page1.body.next_cursor}`, admin.key);
    expect(page2.body).toMatchObject({ data: [expect.objectContaining({ id: ids[0] })], has_more: false, next_cursor: null });
    // A cursor this endpoint never returned is refused, not read as "from the start" (a client would page forever).
    for (const path of [`/organizations/${org.id}/payments?cursor=garbage`, `/organizations/${org.id}/plan/history?cursor=garbage`]) {
      const bad = await h.json('GET', path, owner.key);
      expect(bad.status, path).toBe(400);
      expect(bad.body.error.message).toMatch(/cursor/);
    }
    const succeeded = await h.json('GET', `/organizations/${org.id}/payments?status=succeeded`, billing.key);
    expect(succeeded.body.data.map((p: any) => p.id)).toEqual([ids[1]]);
    expect((await h.json('GET', `/users/me/payments/${ids[1]}`, owner.key)).status).toBe(404); // not the personal account's

    const provider = await h.json('GET', `/organizations/${org.id}/payments/provider/${ids[1]}`, owner.key);
    expect(provider.body).toMatchObject({ payment_id: ids[1], provider: 'stripe', data: { object: 'payment_intent', status: 'succeeded', amount: 2000, charge: { receipt_url: expect.any(String) } } });
    const byProviderId = await h.json('GET', `/organizations/${org.id}/payments/provider/${provider.body.data.id}`, owner.key);
    expect(byProviderId.body.payment_id).toBe(ids[1]);
    const open = await h.json('GET', `/organizations/${org.id}/payments/provider/${ids[0]}`, owner.key);
    expect(open.body.data).toMatchObject({ object: 'checkout.session', status: 'open', url: expect.stringContaining('/c/pay/') });
  });
});
