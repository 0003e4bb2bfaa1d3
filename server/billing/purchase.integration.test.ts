// Saved cards and direct purchases through HTTP with Stripe (the local fake): one idempotency key is one
// charge and one credit even when sent concurrently; a declined card or one needing 3-D Secure is a 402
// with the reason, and nothing is credited.
import { expect, it } from 'vitest';
import { balanceMicros, billingUser, organizationWith, saveCard, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

describeEachDatabase('saved cards and direct purchases with Stripe', () => {
  const h = useBillingHarness('stripe');

  it('saves a card through a setup-mode checkout and makes the latest one the default', async () => {
    const u = await billingUser();
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body).toEqual({ data: null });
    const setup = await h.json('POST', '/users/me/payment-method/setup-session', u.key);
    expect(setup.status).toBe(201);
    expect(h.fake.get(setup.body.checkout_session_id)).toMatchObject({ mode: 'setup', metadata: { account_id: u.user.personal_account_id } });
    const first = await saveCard(h, 'stripe', '/users/me', u.key, '4242424242424242');
    expect(first).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, provider: 'stripe' });
    const second = await saveCard(h, 'stripe', `/users/${u.user.id}`, u.key, '5555555555554444');
    expect(second).toMatchObject({ brand: 'mastercard', last4: '4444' });
    expect((await h.json('GET', '/users/me/payment-method/default', u.key)).body.data.id).toBe(second.id);
  });

  it('needs a saved card (402 that says how to add one)', async () => {
    const u = await billingUser();
    const r = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 10 });
    expect(r.status).toBe(402);
    expect(r.body.error.metadata).toMatchObject({ reason: 'no_payment_method', setup_path: '/api/v1/users/me/payment-method/setup-session' });
  });

  it('charges off-session with an idempotency key: a concurrent burst of one key is one charge and one credit', async () => {
    const u = await billingUser();
    await saveCard(h, 'stripe', '/users/me', u.key);
    const piBefore = h.fake.list('pi_').length;
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => h.json('POST', '/users/me/credits/purchase', u.key, { amount: 12.5 }, { 'idempotency-key': 'order-42' })),
    );
    for (const r of burst) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = new Set(burst.map((r) => r.body.payment.id));
    expect(ids.size).toBe(1);
    expect(burst[0].body.payment).toMatchObject({ status: 'succeeded', kind: 'direct', amount: 12.5, credit: 12.5 });
    expect(h.fake.list('pi_').length - piBefore).toBe(1);
    const pi = h.fake.list('pi_').at(-1)!;
    expect(pi).toMatchObject({ amount: 1250, off_session: true, status: 'succeeded', metadata: { payment_id: burst[0].body.payment.id } });
    expect(await balanceMicros(u.user.personal_account_id)).toBe(12_500_000n);
    await h.fake.settled(); // payment_intent.succeeded arrives too: still one credit
    expect(await balanceMicros(u.user.personal_account_id)).toBe(12_500_000n);

    // The same key later replays the result; with another amount it is a conflict; a new key is a new charge.
    const replay = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 12.5, idempotency_key: 'order-42' });
    expect(replay.body.payment.id).toBe(burst[0].body.payment.id);
    expect((await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 13 }, { 'idempotency-key': 'order-42' })).status).toBe(409);
    const other = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 5 });
    expect(other.body.balance).toMatchObject({ balance: 17.5 });
    expect(h.fake.list('pi_').length - piBefore).toBe(2);
  });

  it('a declined card is a 402 with the decline reason and no credit', async () => {
    const u = await billingUser();
    await saveCard(h, 'stripe', '/users/me', u.key, '4000000000000341'); // attaches, then declines
    const r = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 20 });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toMatch(/declined/);
    expect(r.body.error.metadata).toMatchObject({ reason: 'card_declined', decline_reason: expect.stringContaining('generic_decline') });
    const payment = await h.json('GET', `/users/me/payments/${r.body.error.metadata.payment_id}`, u.key);
    expect(payment.body).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('declined') });
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
  });

  it('a card that needs 3-D Secure is a 402 pointing to checkout, and no credit', async () => {
    const u = await billingUser();
    await saveCard(h, 'stripe', '/users/me', u.key, '4000002500003155');
    const r = await h.json('POST', '/users/me/credits/purchase', u.key, { amount: 20 });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toMatch(/authentication \(3-D Secure\).*checkout/);
    expect(r.body.error.metadata.reason).toBe('authentication_required');
    await h.fake.settled();
    expect(await balanceMicros(u.user.personal_account_id)).toBe(0n);
  });

  it('buys for an organization with its own card, owners and billing managers only', async () => {
    const owner = await billingUser();
    const member = await billingUser();
    const org = await organizationWith(owner, [{ user: member, role: 'MEMBER' }]);
    const base = `/organizations/${org.id}`;
    expect((await h.json('POST', `${base}/payment-method/setup-session`, member.key)).status).toBe(403);
    expect((await h.json('GET', `${base}/payment-method/default`, member.key)).status).toBe(403);
    await saveCard(h, 'stripe', base, owner.key);
    expect((await h.json('POST', `${base}/credits/purchase`, member.key, { amount: 10 })).status).toBe(403);
    const r = await h.json('POST', `${base}/credits/purchase`, owner.key, { amount: 10 });
    expect(r.status).toBe(200);
    expect(r.body.balance.account_id).toBe(org.id);
    expect(await balanceMicros(org.id)).toBe(10_000_000n);
    expect(await balanceMicros(owner.user.personal_account_id)).toBe(0n);
  });
});
