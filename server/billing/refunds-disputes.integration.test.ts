// Refunds and disputes (Stripe webhooks through HTTP) take back the credit a payment bought, through
// ledger entries tied to the payment, once, whatever the order or repetition of events.
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { balanceMicros, billingUser, organizationWith, saveCard, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('refunds and disputes with Stripe', () => {
  const h = useBillingHarness('stripe');

  /** A user who bought `usd` of credit through checkout; returns the payment and its payment intent. */
  async function paidCheckout(usd: number) {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: usd });
    h.fake.completeCheckout(co.body.checkout_session_id);
    await h.fake.settled();
    const payment = (await h.json('GET', `/users/me/payments/${co.body.payment.id}`, u.key)).body;
    expect(payment.status).toBe('succeeded');
    return { u, accountId: u.user.personal_account_id, paymentId: payment.id as string, pi: payment.provider_payment_id as string };
  }

  const entries = async (paymentId: string) =>
    (await (await db()).ledgerEntry.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' }, select: { kind: true, amountMicros: true } })).map((e) => `${e.kind} ${e.amountMicros}`);

  it('a partial then full refund reverses the refunded share of the credit, once per event', async () => {
    const { u, accountId, paymentId, pi } = await paidCheckout(20);
    h.fake.autoDeliver = false;
    try {
      const partial = h.fake.refund(pi, 500);
      for (let i = 0; i < 2; i++) expect((await h.fake.deliver(partial)).status).toBe(200);
      expect(await balanceMicros(accountId)).toBe(15_000_000n);
      let p = (await h.json('GET', `/users/me/payments/${paymentId}`, u.key)).body;
      expect(p).toMatchObject({ status: 'partially_refunded', refunded_amount_cents: 500 });

      const rest = h.fake.refund(pi); // the remaining 1500: Stripe reports the running total (2000)
      expect((await h.fake.deliver(rest)).status).toBe(200);
      expect((await h.fake.deliver(partial)).status).toBe(200); // an old event again, with a new id? same id: replay
      expect(await balanceMicros(accountId)).toBe(0n);
      p = (await h.json('GET', `/users/me/payments/${paymentId}`, u.key)).body;
      expect(p).toMatchObject({ status: 'refunded', refunded_amount_cents: 2000 });
      expect(p.events.map((e: any) => e.to_status)).toEqual(['pending', 'succeeded', 'partially_refunded', 'refunded']);
      expect(await entries(paymentId)).toEqual(['PURCHASE 20000000', 'REFUND -5000000', 'REFUND -15000000']);
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('refund events out of order: the larger running total first leaves nothing for the older one', async () => {
    const { accountId, paymentId, pi } = await paidCheckout(10);
    h.fake.autoDeliver = false;
    try {
      const first = h.fake.refund(pi, 300);
      const second = h.fake.refund(pi, 200);
      expect((await h.fake.deliver(second)).status).toBe(200);
      expect((await h.fake.deliver(first)).status).toBe(200);
      expect(await balanceMicros(accountId)).toBe(5_000_000n);
      expect(await entries(paymentId)).toEqual(['PURCHASE 10000000', 'REFUND -5000000']);
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('a refund reported before the payment succeeded is applied with the success, and the payment says refunded', async () => {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 10 });
    h.fake.autoDeliver = false;
    try {
      const events = h.fake.completeCheckout(co.body.checkout_session_id);
      const refund = h.fake.refund(h.fake.get(co.body.checkout_session_id)!.payment_intent);
      expect((await h.fake.deliver(refund)).status).toBe(200);
      for (const e of events) expect((await h.fake.deliver(e)).status).toBe(200);
    } finally {
      h.fake.autoDeliver = true;
    }
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
    const p = (await h.json('GET', `/users/me/payments/${co.body.payment.id}`, u.key)).body;
    expect(p).toMatchObject({ status: 'refunded', refunded_amount_cents: 1000 });
    expect(p.events.map((e: any) => e.to_status)).toEqual(['pending', 'succeeded', 'refunded']);
    expect(await entries(co.body.payment.id)).toEqual(['PURCHASE 10000000', 'REFUND -10000000']);
  });

  it('a dispute holds the credit back; a won dispute gives it back; a lost one keeps it', async () => {
    const a = await paidCheckout(30);
    const opened = h.fake.openDispute(a.pi);
    await h.fake.settled();
    expect(await balanceMicros(a.accountId)).toBe(0n);
    expect((await h.json('GET', `/users/me/payments/${a.paymentId}/status`, a.u.key)).body.status).toBe('disputed');
    await h.fake.deliver(opened); // replay
    h.fake.closeDispute(opened.data.object.id, 'won');
    await h.fake.settled();
    expect(await balanceMicros(a.accountId)).toBe(30_000_000n);
    expect((await h.json('GET', `/users/me/payments/${a.paymentId}/status`, a.u.key)).body.status).toBe('succeeded');
    expect(await entries(a.paymentId)).toEqual(['PURCHASE 30000000', 'DISPUTE -30000000', 'DISPUTE_REVERSAL 30000000']);

    const b = await paidCheckout(12);
    const dp = h.fake.openDispute(b.pi, 600);
    // Stripe sends the two events ~together; here the opening is handled first, so the history ends with the close.
    await h.fake.settled();
    h.fake.closeDispute(dp.data.object.id, 'lost');
    await h.fake.settled();
    expect(await balanceMicros(b.accountId)).toBe(6_000_000n);
    const details = (await h.json('GET', `/users/me/payments/${b.paymentId}`, b.u.key)).body;
    expect(details.status).toBe('disputed');
    expect(details.events.at(-1).reason).toMatch(/closed: lost/);
  });

  it('a dispute reported before its payment succeeded is refused until the payment is credited, then held back', async () => {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 10 });
    h.fake.autoDeliver = false;
    try {
      const events = h.fake.completeCheckout(co.body.checkout_session_id);
      const opened = h.fake.openDispute(h.fake.get(co.body.checkout_session_id)!.payment_intent);
      expect((await h.fake.deliver(opened)).status).toBe(409); // Stripe retries it
      for (const e of events) expect((await h.fake.deliver(e)).status).toBe(200);
      expect((await h.fake.deliver(opened)).status).toBe(200); // the retry
    } finally {
      h.fake.autoDeliver = true;
    }
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
    expect((await h.json('GET', `/users/me/payments/${co.body.payment.id}/status`, u.key)).body.status).toBe('disputed');
  });

  it('a dispute closed (won) before its opening event arrives nets to zero and stays settled', async () => {
    const { u, accountId, paymentId, pi } = await paidCheckout(8);
    h.fake.autoDeliver = false;
    try {
      const opened = h.fake.openDispute(pi);
      const closed = h.fake.closeDispute(opened.data.object.id, 'won');
      expect((await h.fake.deliver(closed)).status).toBe(200);
      expect((await h.fake.deliver(opened)).status).toBe(200);
      expect(await balanceMicros(accountId)).toBe(8_000_000n);
      expect((await h.json('GET', `/users/me/payments/${paymentId}/status`, u.key)).body.status).toBe('succeeded');
    } finally {
      h.fake.autoDeliver = true;
    }
  });

  it('a refund or dispute of a subscription invoice takes back the plan credit it granted, pro rata', async () => {
    const owner = await billingUser();
    const org = await organizationWith(owner);
    const base = `/organizations/${org.id}`;
    await saveCard(h, 'stripe', base, owner.key);
    const sub = await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams', seats: 2 }); // $40, $10 of credit
    expect(sub.status).toBe(201);
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(10_000_000n);
    const invoicePayment = h.fake.list('inpay_').find((x) => x.invoice === h.fake.get(sub.body.subscription.provider_subscription_id)!.latest_invoice)!;
    h.fake.refund(invoicePayment.payment.payment_intent, 1000); // a quarter of the invoice
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(7_500_000n);
    const payment = (await h.json('GET', `${base}/payments`, owner.key)).body.data[0];
    expect(payment).toMatchObject({ kind: 'subscription', status: 'partially_refunded', refunded_amount_cents: 1000 });
    expect(await entries(payment.id)).toEqual(['PLAN_CREDIT 10000000', 'REFUND -2500000']);
    h.fake.openDispute(invoicePayment.payment.payment_intent, 3000);
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(0n);
    expect((await h.json('GET', `${base}/payments/${payment.id}/status`, owner.key)).body.status).toBe('disputed');
  });

  it('a refund of a direct purchase is matched through the payment intent', async () => {
    const u = await billingUser();
    const setup = await h.json('POST', '/users/me/payment-method/setup-session', u.key);
    h.fake.completeCheckout(setup.body.checkout_session_id);
    await h.fake.settled();
    const bought = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 10 });
    h.fake.refund(bought.body.payment.provider_payment_id, 1000);
    await h.fake.settled();
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
  });
});
