// Without Stripe the built-in sandbox behaves like it end to end, through HTTP: its checkout page's form
// (4242… pays, 4000 0000 0000 0002 is declined), setup sessions that save a card, direct purchases, auto
// top-up and subscriptions with immediate invoices — all credited through the same fulfilment code.
import { expect, it } from 'vitest';
import { maybeTriggerAutoTopUp } from '@/server/billing/maybe-trigger-auto-top-up';
import { getSandboxCheckout } from '@/server/billing/sandbox/sandbox-checkout';
import { grantCredits } from '@/server/ledger/balance';
import { balanceMicros, billingUser, organizationWith, saveCard, submitSandboxForm, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('the sandbox payment provider', () => {
  const h = useBillingHarness('sandbox');

  it('checkout: a declined card leaves it open, 4242 pays and credits once, and the return page data agrees', async () => {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 20 });
    expect(co.status).toBe(201);
    expect(co.body.url).toBe(`${h.api.origin}/sandbox/checkout/${co.body.checkout_session_id}`);
    expect(co.body.payment).toMatchObject({ provider: 'sandbox', status: 'pending' });
    expect(await getSandboxCheckout({ sessionId: co.body.checkout_session_id })).toMatchObject({ mode: 'payment', state: 'open', amount: 20 });

    const declined = await submitSandboxForm(h, co.body.url, { card_number: '4000 0000 0000 0002' });
    expect(declined.status).toBe(303);
    expect(declined.headers.get('location')).toBe(`${co.body.url}?error=generic_decline`);
    const invalid = await submitSandboxForm(h, co.body.url, { card_number: '4242 4242 4242 4241' });
    expect(invalid.headers.get('location')).toMatch(/error=invalid_number$/);
    const expired = await submitSandboxForm(h, co.body.url, { expiry: '01 / 20' });
    expect(expired.headers.get('location')).toMatch(/error=invalid_expiry$/);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);

    const paid = await submitSandboxForm(h, co.body.url);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${h.api.origin}/billing/return?session_id=${co.body.checkout_session_id}`);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(20_000_000n);
    const again = await submitSandboxForm(h, co.body.url); // a second submit (back button): already complete
    expect(again.headers.get('location')).toMatch(/\/billing\/return\?session_id=/);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(20_000_000n);
    const status = await h.json('GET', `/users/me/payments/${co.body.payment.id}/status`, u.key);
    expect(status.body).toMatchObject({ status: 'succeeded', credited: true });
    const provider = await h.json('GET', `/users/me/payments/provider/${co.body.payment.id}`, u.key);
    expect(provider.body).toMatchObject({ provider: 'sandbox', data: { sandbox: true, status: 'succeeded', amount: 2000 } });
  });

  it('checkout: cancel on the page cancels the payment', async () => {
    const u = await billingUser();
    const co = await h.json('POST', '/users/credits/checkout', u.key, { amount: 5 });
    const res = await submitSandboxForm(h, co.body.url, { action: 'cancel', card_number: '' });
    expect(res.headers.get('location')).toBe(`${h.api.origin}/billing/return?payment_id=${co.body.payment.id}&canceled=1`);
    expect((await h.json('GET', `/users/me/payments/${co.body.payment.id}/status`, u.key)).body.status).toBe('canceled');
    expect((await submitSandboxForm(h, co.body.url)).headers.get('location')).toMatch(/error=expired$/);
  });

  it('setup session saves a card; direct purchase charges it; declines and 3-D Secure are 402s', async () => {
    const u = await billingUser();
    const setup = await h.json('POST', '/users/me/payment-method/setup-session', u.key);
    expect((await submitSandboxForm(h, setup.body.url, { card_number: '4000 0000 0000 0002' })).headers.get('location')).toMatch(/error=generic_decline/);
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data).toBeNull();
    const card = await saveCard(h, 'sandbox', '/users/me', u.key);
    expect(card).toMatchObject({ provider: 'sandbox', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });

    const bought = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 9.99 }, { 'idempotency-key': 'k1' });
    expect(bought.status).toBe(200);
    expect(bought.body.balance.balance).toBe(9.99);
    const replay = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 9.99 }, { 'idempotency-key': 'k1' });
    expect(replay.body.payment.id).toBe(bought.body.payment.id);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(9_990_000n);

    await saveCard(h, 'sandbox', '/users/me', u.key, '4000 0025 0000 3155');
    const sca = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 10 });
    expect(sca.status).toBe(402);
    expect(sca.body.error.metadata.reason).toBe('authentication_required');
    const setup2 = await h.json('POST', '/users/me/payment-method/setup-session', u.key);
    expect((await submitSandboxForm(h, setup2.body.url, { card_number: '4000 0000 0000 9995' })).headers.get('location')).toMatch(/error=insufficient_funds/);
    await saveCard(h, 'sandbox', '/users/me', u.key, '4000 0000 0000 0341'); // saves, declines when charged
    const declined = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 10 });
    expect(declined.status).toBe(402);
    expect(declined.body.error.metadata.decline_reason).toMatch(/generic_decline/);
    expect(await balanceMicros(u.user.personal_account_id)).toBe(9_990_000n);
  });

  it('auto top-up charges the sandbox card once', async () => {
    const u = await billingUser(6);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'sandbox', '/users/me', u.key);
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 10 });
    await grantCredits({ accountId, amountMicros: -2_000_000n, idempotencyKey: `spend:${accountId}` });
    await Promise.all(Array.from({ length: 10 }, () => maybeTriggerAutoTopUp(accountId)));
    expect(await balanceMicros(accountId)).toBe(14_000_000n);
    const payments = (await h.json('GET', '/users/me/payments?limit=100', u.key)).body.data;
    expect(payments.filter((p: any) => p.kind === 'auto_top_up')).toEqual([expect.objectContaining({ status: 'succeeded', amount: 10 })]);
  });

  it('subscriptions: an immediate invoice grants the plan credit; seats are prorated; cancel at period end', async () => {
    const owner = await billingUser();
    const billing = await billingUser();
    const org = await organizationWith(owner, [{ user: billing, role: 'BILLING' }]);
    const base = `/organizations/${org.id}`;
    await saveCard(h, 'sandbox', base, billing.key);
    const sub = await h.json('POST', `${base}/plan`, billing.key, { plan_id: 'teams', seats: 4 });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    expect(sub.body).toMatchObject({ plan: { id: 'teams' }, subscription: { provider: 'sandbox', status: 'active', seats: 4 } });
    expect(await balanceMicros(org.id)).toBe(20_000_000n);
    const seats = await h.json('PUT', `${base}/plan/seats`, billing.key, { seats: 6 });
    expect(seats.body.proration.amount_cents).toBeGreaterThan(3990);
    expect((await h.json('PUT', `${base}/plan/seats`, billing.key, { seats: 1 })).status).toBe(400);
    const canceled = await h.json('DELETE', `${base}/plan/teams`, owner.key);
    expect(canceled.body.subscription).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    const again = await h.json('POST', `${base}/plan`, owner.key, { plan_id: 'teams' }); // keep it after all
    expect(again.body.subscription).toMatchObject({ cancel_at_period_end: false, seats: 6 });
    const kinds = (await h.json('GET', `${base}/plan/history`, owner.key)).body.data.map((c: any) => c.kind);
    expect(kinds).toEqual(['cancel_withdrawn', 'cancel_scheduled', 'seats_changed', 'subscribed']);
    expect(await balanceMicros(org.id)).toBe(20_000_000n);
  });

  it('the Stripe webhook endpoint is not configured without Stripe', async () => {
    const r = await h.call('POST', '/api/webhooks/stripe', null, '{}', { 'stripe-signature': 't=1,v1=x' });
    expect(r.status).toBe(503);
  });
});
