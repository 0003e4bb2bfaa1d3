// Plans and seats with Stripe (the local fake) through HTTP: subscribe (quantity = seats), seat changes
// with proration and the member-count floor, cancel at period end, and the subscription webhooks keeping
// the plan true; included credit granted once per paid (first or renewal) invoice.
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { db } from '@/server/db';
import { endSubscriptionPeriod } from '@/test/fake-stripe-billing';
import { addMembers, balanceMicros, billingUser, organizationWith, saveCard, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('plans and seats with Stripe', () => {
  const h = useBillingHarness('stripe');

  async function orgWithCard(extraMembers = 2) {
    const owner = await billingUser();
    const member = await billingUser();
    const org = await organizationWith(owner, [{ user: member, role: 'MEMBER' }]);
    await addMembers(org.id, extraMembers - 1);
    const base = `/organizations/${org.id}`;
    return { owner, member, org, base };
  }

  it('lists plans; an organization without a subscription is on the free plan', async () => {
    const { owner, member, base } = await orgWithCard();
    const plans = await h.json('GET', '/plans', owner.key);
    expect(plans.body.data.map((p: any) => p.id)).toEqual(['free', 'teams']);
    expect(plans.body.data[1]).toMatchObject({ price_per_seat: 20, included_credit_per_seat: 5, seat_limited: true });
    expect((await h.json('GET', '/plans', null)).status).toBe(401);
    const current = await h.json('GET', `${base}/plan`, member.key);
    expect(current.body).toMatchObject({ plan: { id: 'free' }, subscription: null, member_count: 3 });
    expect((await h.json('GET', `${base}/plan/teams`, member.key)).body).toMatchObject({ id: 'teams', current: false });
    expect((await h.json('GET', `${base}/plan/nope`, member.key)).status).toBe(404);
  });

  it('subscribes with seats = members, grants the included credit once, changes seats with proration, cancels at period end', async () => {
    const { owner, member, org, base } = await orgWithCard(2); // 3 members
    expect((await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' })).status).toBe(402); // no card yet
    await saveCard(h, 'stripe', base, owner.key);
    expect((await h.json('POST', `${base}/plan`, member.key, { plan_id: 'teams' })).status).toBe(403);
    expect((await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams', seats: 2 })).status).toBe(400);
    expect((await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'free' })).status).toBe(400);

    const sub = await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    expect(sub.body).toMatchObject({ plan: { id: 'teams' }, subscription: { status: 'active', seats: 3, provider: 'stripe', cancel_at_period_end: false }, included_credit_per_period: 15 });
    const stripeSub = h.fake.get(sub.body.subscription.provider_subscription_id)!;
    expect(stripeSub).toMatchObject({ metadata: { organization_id: org.id, plan_id: 'teams' }, items: { data: [{ quantity: 3, price: { unit_amount: 2000 } }] } });
    await h.fake.settled(); // customer.subscription.created + invoice.paid arrive after the answer
    expect(await balanceMicros(org.id)).toBe(15_000_000n);
    const invoicePaid = h.fake.eventsOfType('invoice.paid').at(-1)!;
    expect((await h.fake.deliver(invoicePaid)).body.duplicate).toBe(true);
    expect(await balanceMicros(org.id)).toBe(15_000_000n);
    expect((await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' })).status).toBe(409);

    // Seats: never below the member count; more seats are charged pro rata now, and grant no credit.
    const low = await h.json('PUT', `${base}/plan/seats`, owner.key, { seats: 2 });
    expect(low.status).toBe(400);
    expect(low.body.error.metadata.member_count).toBe(3);
    const more = await h.json('PUT', `${base}/plan/seats`, owner.key, { seats: 5 });
    expect(more.status).toBe(200);
    expect(more.body.subscription.seats).toBe(5);
    expect(more.body.proration.amount_cents).toBeGreaterThan(3990);
    expect(more.body.proration.amount_cents).toBeLessThanOrEqual(4000);
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(15_000_000n);
    const fewer = await h.json('PUT', `${base}/plan/seats`, owner.key, { seats: 4 });
    expect(fewer.body.proration.amount_cents).toBeLessThan(0);
    const payments = await h.json('GET', `${base}/payments`, owner.key);
    expect(payments.body.data.map((p: any) => `${p.kind}:${p.amount_cents}`)).toEqual([`subscription:${more.body.proration.amount_cents}`, 'subscription:6000']);

    // Cancel at the end of the period: still on teams until Stripe ends it.
    expect((await h.json('DELETE', `${base}/plan/free`, owner.key)).status).toBe(404);
    const canceled = await h.json('DELETE', `${base}/plan/teams`, owner.key);
    expect(canceled.body).toMatchObject({ plan: { id: 'teams' }, subscription: { cancel_at_period_end: true } });
    endSubscriptionPeriod(h.fake, stripeSub.id);
    await h.fake.settled();
    expect((await h.json('GET', `${base}/plan`, owner.key)).body).toMatchObject({ plan: { id: 'free' }, subscription: null });
    const history = await h.json('GET', `${base}/plan/history`, owner.key);
    expect(history.body.data.map((c: any) => c.kind)).toEqual(['canceled', 'cancel_scheduled', 'seats_changed', 'seats_changed', 'subscribed']);
    expect(history.body.data.at(-1)).toMatchObject({ actor_user_id: owner.user.id, to_plan_id: 'teams', to_seats: 3 });
    expect((await h.json('GET', `${base}/plan/history`, member.key)).status).toBe(403);
  });

  it('renewals grant credit per paid invoice; a failed renewal is past due', async () => {
    const { owner, org, base } = await orgWithCard(1);
    await saveCard(h, 'stripe', base, owner.key);
    const sub = (await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' })).body.subscription;
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(10_000_000n);
    h.fake.autoDeliver = false;
    try {
      const renewal = endSubscriptionPeriod(h.fake, sub.provider_subscription_id);
      for (const e of [...renewal, ...renewal]) expect((await h.fake.deliver(e)).status).toBe(200);
      expect(await balanceMicros(org.id)).toBe(20_000_000n);
      for (const e of endSubscriptionPeriod(h.fake, sub.provider_subscription_id, { fail: true })) await h.fake.deliver(e);
    } finally {
      h.fake.autoDeliver = true;
    }
    expect(await balanceMicros(org.id)).toBe(20_000_000n);
    const current = (await h.json('GET', `${base}/plan`, owner.key)).body;
    expect(current.subscription.status).toBe('past_due');
    const failed = (await h.json('GET', `${base}/payments?status=failed`, owner.key)).body.data;
    expect(failed).toEqual([expect.objectContaining({ kind: 'subscription', amount_cents: 4000 })]);
    const kinds = (await h.json('GET', `${base}/plan/history`, owner.key)).body.data.map((c: any) => c.kind);
    expect(kinds.slice(0, 2).sort()).toEqual(['past_due', 'payment_failed']);
  });

  it('a failed renewal paid on a retry becomes a succeeded payment showing the plan credit it granted', async () => {
    const { owner, org, base } = await orgWithCard(1);
    await saveCard(h, 'stripe', base, owner.key);
    const sub = (await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' })).body.subscription;
    await h.fake.settled();
    endSubscriptionPeriod(h.fake, sub.provider_subscription_id, { fail: true });
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(10_000_000n);
    // Stripe's smart retry charges the card: the same invoice is paid.
    const invoice = h.fake.get(h.fake.get(sub.provider_subscription_id)!.latest_invoice)!;
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0 });
    Object.assign(h.fake.get(sub.provider_subscription_id)!, { status: 'active' });
    h.fake.emit('invoice.paid', invoice);
    await h.fake.settled();
    expect(await balanceMicros(org.id)).toBe(20_000_000n);
    const renewal = (await h.json('GET', `${base}/payments`, owner.key)).body.data[0];
    expect(renewal).toMatchObject({ kind: 'subscription', status: 'succeeded', amount_cents: 4000, credit: 10, failure_reason: null });
  });

  it('invoice.paid before customer.subscription.created: the subscription is fetched, credit granted once', async () => {
    const { owner, org, base } = await orgWithCard(1);
    const card = await saveCard(h, 'stripe', base, owner.key);
    const prisma = await db();
    const customer = (await prisma.account.findUniqueOrThrow({ where: { id: org.id } })).stripeCustomerId!;
    const pm = (await prisma.paymentMethod.findUniqueOrThrow({ where: { id: card.id } })).providerId;
    h.fake.autoDeliver = false;
    try {
      // A subscription Stripe knows but we never recorded (our call died before it could).
      const stripe = new Stripe('sk_test_fake', { host: '127.0.0.1', port: Number(new URL(h.fake.url).port), protocol: 'http' });
      const product = await stripe.products.create({ name: 'Teams' });
      const price = await stripe.prices.create({ product: product.id, unit_amount: 2000, currency: 'usd', recurring: { interval: 'month' } });
      const before = h.fake.events.length;
      await stripe.subscriptions.create({ customer, items: [{ price: price.id, quantity: 2 }], default_payment_method: pm, metadata: { organization_id: org.id, plan_id: 'teams' } });
      const [created, paid] = h.fake.events.slice(before);
      expect([created.type, paid.type]).toEqual(['customer.subscription.created', 'invoice.paid']);
      expect((await h.fake.deliver(paid)).status).toBe(200);
      expect(await balanceMicros(org.id)).toBe(10_000_000n);
      expect((await h.fake.deliver(created)).status).toBe(200);
      expect((await h.fake.deliver(paid)).status).toBe(200);
    } finally {
      h.fake.autoDeliver = true;
    }
    expect(await balanceMicros(org.id)).toBe(10_000_000n);
    const current = (await h.json('GET', `${base}/plan`, owner.key)).body;
    expect(current).toMatchObject({ plan: { id: 'teams' }, subscription: { seats: 2, status: 'active' } });
    expect((await h.json('GET', `${base}/plan/history`, owner.key)).body.data.map((c: any) => c.kind)).toEqual(['subscribed']);
  });

  it('a declined card creates no subscription', async () => {
    const { owner, org, base } = await orgWithCard(1);
    await saveCard(h, 'stripe', base, owner.key, '4000000000000341');
    const r = await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toMatch(/declined/);
    expect((await h.json('GET', `${base}/plan`, owner.key)).body.plan.id).toBe('free');
    expect(await (await db()).subscription.count({ where: { organizationId: org.id } })).toBe(0);
  });
});
