// Payments, saved cards, auto top-up and plans in the audit log, through HTTP: what a member asks for is theirs
// (via rest), what the payment provider reports is the system's (its webhook, the sandbox page, auto top-up).
import { expect, it } from 'vitest';
import { withAuditActor } from '@/server/audit/audit-context';
import { maybeTriggerAutoTopUp } from '@/server/billing/maybe-trigger-auto-top-up';
import { grantCredits } from '@/server/ledger/balance';
import { billingUser, organizationWith, saveCard, submitSandboxForm, useBillingHarness, type BillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

const auditLog = async (h: BillingHarness, base: string, key: string, query = '') => {
  const res = await h.json('GET', `${base}/audit-log?limit=200${query}`, key);
  expect(res.status).toBe(200);
  return [...res.body.data].reverse() as any[];
};

describeEachDatabase('Audit log of payments and plans (sandbox)', () => {
  const h = useBillingHarness('sandbox');

  it('checkout: created by the buyer, settled by the provider; a saved card and auto top-up settings with before/after', async () => {
    const u = await billingUser(6);
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 20 }, { 'x-forwarded-for': '203.0.113.50' });
    expect((await submitSandboxForm(h, co.body.url)).status).toBe(303);
    await saveCard(h, 'sandbox', '/users/me', u.key);
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 10 });
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 7, amount: 10 });

    const entries = await auditLog(h, '/users/me', u.key, '&action=payment');
    expect(entries).toEqual([]); // "payment" alone is no action: filter by "payment." for all of them
    const payments = await auditLog(h, '/users/me', u.key, '&action=payment.');
    expect(payments.map((e) => [e.action, e.actor.kind, e.actor.via])).toEqual([
      ['payment.create', 'api_key', 'rest'],
      ['payment.succeeded', 'system', 'system'],
    ]);
    expect(payments[0]).toMatchObject({ target: { type: 'payment', id: co.body.payment.id }, actor: { user_id: u.user.id, ip: '203.0.113.50' }, after: { status: 'pending', amount_cents: 2000, kind: 'checkout' } });
    expect(payments[1]).toMatchObject({ actor: { label: 'sandbox checkout' }, before: { status: 'pending' }, after: { status: 'succeeded', credit: 20 } });

    const [card] = await auditLog(h, '/users/me', u.key, '&action=payment_method.');
    expect(card).toMatchObject({ action: 'payment_method.set_default', actor: { kind: 'system' }, before: null, after: { brand: 'visa', last4: '4242' } });
    const settings = await auditLog(h, '/users/me', u.key, '&action=auto_top_up.update');
    expect(settings.map((e) => [e.before, e.after])).toEqual([
      [null, { enabled: true, threshold: 5, amount: 10, disabled_reason: null }],
      [{ enabled: true, threshold: 5, amount: 10, disabled_reason: null }, { enabled: true, threshold: 7, amount: 10, disabled_reason: null }],
    ]);
    expect(settings[0].actor).toMatchObject({ kind: 'api_key', via: 'rest', user_id: u.user.id });
  });

  it('auto top-up: the payment is the system’s, even when triggered inside someone’s request', async () => {
    const u = await billingUser(6);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'sandbox', '/users/me', u.key);
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 10 });
    await grantCredits({ accountId, amountMicros: -2_000_000n, idempotencyKey: `spend:${accountId}` });
    // As if the settlement batch that triggers it had been scheduled while answering this user's request.
    await withAuditActor({ kind: 'api_key', via: 'rest', userId: u.user.id, label: 'sb-v1-abc…wxyz' }, () => maybeTriggerAutoTopUp(accountId));
    const payments = await auditLog(h, '/users/me', u.key, '&action=payment.');
    expect(payments.map((e) => [e.action, e.actor.kind, e.actor.label, e.after.kind])).toEqual([
      ['payment.create', 'system', 'auto top-up', 'auto_top_up'],
      ['payment.succeeded', 'system', 'auto top-up', 'auto_top_up'],
    ]);
  });

  it('plans: subscribe, seats, cancel and resume, each with the member who did it', async () => {
    const owner = await billingUser();
    const billing = await billingUser();
    const org = await organizationWith(owner, [{ user: billing, role: 'BILLING' }]);
    const base = `/organizations/${org.id}`;
    await saveCard(h, 'sandbox', base, billing.key);
    expect((await h.json('POST', `${base}/plan`, billing.key, { plan_id: 'teams', seats: 4 })).status).toBe(201);
    await h.json('PUT', `${base}/plan/seats`, billing.key, { seats: 6 });
    await h.json('DELETE', `${base}/plan/teams`, owner.key);
    await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' });

    const plans = await auditLog(h, base, owner.key, '&target_type=subscription');
    expect(plans.map((e) => [e.action, e.actor.user_id])).toEqual([
      ['plan.subscribe', billing.user.id],
      ['plan.seats_change', billing.user.id],
      ['plan.cancel', owner.user.id],
      ['plan.resume', owner.user.id],
    ]);
    expect(plans[0]).toMatchObject({ before: null, after: { plan_id: 'teams', seats: 4, status: 'active' } });
    expect(plans[1]).toMatchObject({ before: { seats: 4 }, after: { seats: 6 } });
    expect(plans[2]).toMatchObject({ before: { cancel_at_period_end: false }, after: { cancel_at_period_end: true } });
    const invoices = await auditLog(h, base, owner.key, '&action=payment.succeeded');
    expect(invoices[0]).toMatchObject({ actor: { kind: 'system' }, after: { kind: 'subscription', credit: 20 } });
  });
});

describeEachDatabase('Audit log of refunds and disputes (Stripe webhooks)', () => {
  const h = useBillingHarness('stripe');

  it('records refunds and disputes as the system, from the webhook', async () => {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 20 });
    h.fake.completeCheckout(co.body.checkout_session_id);
    await h.fake.settled();
    const pi = (await h.json('GET', `/users/me/payments/${co.body.payment.id}`, u.key)).body.provider_payment_id;
    h.fake.refund(pi, 500);
    await h.fake.settled();
    const dispute = h.fake.openDispute(pi);
    await h.fake.settled();
    h.fake.closeDispute(dispute.data.object.id, 'won');
    await h.fake.settled();

    const entries = await auditLog(h, '/users/me', u.key, '&action=payment.');
    expect(entries.map((e) => e.action)).toEqual(['payment.create', 'payment.succeeded', 'payment.refund', 'payment.disputed', 'payment.dispute_closed']);
    for (const e of entries.slice(1)) expect(e.actor).toMatchObject({ kind: 'system', via: 'system', label: 'stripe webhook' });
    expect(entries[2]).toMatchObject({ before: { refunded_amount_cents: 0, status: 'succeeded' }, after: { refunded_amount_cents: 500, status: 'partially_refunded' } });
    expect(entries[4]).toMatchObject({ after: { outcome: 'won', dispute_id: dispute.data.object.id } });
  });
});
