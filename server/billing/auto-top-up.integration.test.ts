// Auto top-up through the real settlement path (reserve → the settlement queue → batched flush → trigger) with
// Stripe (the local fake): a burst of charges below the threshold buys exactly one top-up; a declined
// top-up switches it off and says why.
import { expect, it } from 'vitest';
import { maybeTriggerAutoTopUps } from '@/server/billing/maybe-trigger-auto-top-up';
import { db } from '@/server/db';
import { grantCredits } from '@/server/ledger/balance';
import { newRowId, reserveCredits } from '@/server/ledger/reserve';
import { SettlementQueue } from '@/server/ledger/settlement-queue';
import { balanceMicros, billingUser, eventually, saveCard, useBillingHarness } from '@/test/billing-factories';
import { describeEachDatabase } from '@/test/db';

/** `n` generations of `costMicros` each, reserved and settled concurrently, as the gateway does. */
async function burstOfCharges(accountId: string, n: number, costMicros: bigint) {
  const settlements = new SettlementQueue();
  await Promise.all(
    Array.from({ length: n }, async () => {
      const generationId = `gen-test-${newRowId()}`;
      await reserveCredits({ accountId, amountMicros: costMicros, generationId });
      await settlements.enqueue({
        generationId, accountId, costMicros,
        usage: { model: 'switchboard/echo', provider: 'echo', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status: 'SUCCESS', streamed: false },
      });
    }),
  );
}

describeEachDatabase('auto top-up with Stripe', () => {
  const h = useBillingHarness('stripe');

  it('has sensible defaults and bounds, and needs a saved card to be switched on', async () => {
    const u = await billingUser();
    const get = await h.json('GET', '/users/me/auto-top-up', u.key);
    expect(get.body).toMatchObject({ enabled: false, threshold: 5, amount: 20, disabled_reason: null, payment_method: null });
    const on = await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true });
    expect(on.status).toBe(402);
    expect(on.body.error.metadata.reason).toBe('no_payment_method');
    for (const body of [{ enabled: true, amount: 4 }, { enabled: true, threshold: -1 }, { enabled: true, amount: 20_000 }, { threshold: 5 }]) {
      expect((await h.json('PUT', '/users/me/auto-top-up', u.key, body)).status, JSON.stringify(body)).toBe(400);
    }
    await saveCard(h, 'stripe', '/users/me', u.key);
    const saved = await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 7.5, amount: 25 });
    expect(saved.body).toMatchObject({ enabled: true, threshold: 7.5, amount: 25, payment_method: { last4: '4242' } });
    const off = await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, threshold: 7.5, amount: 25 });
  });

  it('a burst of charges below the threshold triggers exactly one top-up', async () => {
    const u = await billingUser(6);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'stripe', '/users/me', u.key);
    expect((await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 20 })).status).toBe(200);
    const piBefore = h.fake.list('pi_').length;

    await Promise.all([burstOfCharges(accountId, 30, 100_000n), ...Array.from({ length: 10 }, () => maybeTriggerAutoTopUps([accountId, accountId]))]);
    await Promise.all(Array.from({ length: 10 }, () => maybeTriggerAutoTopUps([accountId])));

    const prisma = await db();
    await eventually(async () => expect(await balanceMicros(accountId)).toBe(6_000_000n - 3_000_000n + 20_000_000n));
    await new Promise((r) => setTimeout(r, 200));
    const topUps = await prisma.payment.findMany({ where: { accountId, kind: 'AUTO_TOP_UP' } });
    expect(topUps).toHaveLength(1);
    expect(topUps[0]).toMatchObject({ status: 'SUCCEEDED', amountCents: 2000 });
    expect(h.fake.list('pi_').length - piBefore).toBe(1);
    const settings = await h.json('GET', '/users/me/auto-top-up', u.key);
    expect(settings.body).toMatchObject({ enabled: true, in_flight_payment_id: null, last_triggered_at: expect.any(String) });

    // Balance is above the threshold again: more triggers do nothing.
    await maybeTriggerAutoTopUps([accountId]);
    expect(await prisma.payment.count({ where: { accountId, kind: 'AUTO_TOP_UP' } })).toBe(1);
  });

  it('never loops: within the cool-down a second drop below the threshold waits', async () => {
    const u = await billingUser(6);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'stripe', '/users/me', u.key);
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 5 });
    await burstOfCharges(accountId, 2, 1_000_000n); // 6 → 4: top-up of 5 → 9
    await eventually(async () => expect(await balanceMicros(accountId)).toBe(9_000_000n));
    await burstOfCharges(accountId, 1, 5_000_000n); // 9 → 4 again, a moment later
    await maybeTriggerAutoTopUps([accountId]);
    await new Promise((r) => setTimeout(r, 200));
    const prisma = await db();
    expect(await prisma.payment.count({ where: { accountId, kind: 'AUTO_TOP_UP' } })).toBe(1);
    expect(await balanceMicros(accountId)).toBe(4_000_000n);
  });

  it('switched on while the balance is already below the threshold, it tops up at once (no usage can come: requests are refused)', async () => {
    const u = await billingUser(0);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'stripe', '/users/me', u.key);
    const on = await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 20 });
    expect(on.status).toBe(200);
    await eventually(async () => expect(await balanceMicros(accountId)).toBe(20_000_000n));
    const prisma = await db();
    expect(await prisma.payment.count({ where: { accountId, kind: 'AUTO_TOP_UP' } })).toBe(1);
    // Saving the settings again (above the threshold now, and within the cool-down) charges nothing more.
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true, threshold: 5, amount: 20 });
    expect(await prisma.payment.count({ where: { accountId, kind: 'AUTO_TOP_UP' } })).toBe(1);
  });

  it('a declined top-up switches auto top-up off and records why; no credit', async () => {
    const u = await billingUser(6);
    const accountId = u.user.personal_account_id;
    await saveCard(h, 'stripe', '/users/me', u.key, '4000000000000341');
    await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true });
    await grantCredits({ accountId, amountMicros: -2_000_000n, idempotencyKey: `test-spend:${accountId}` });
    await maybeTriggerAutoTopUps([accountId]);
    const settings = await h.json('GET', '/users/me/auto-top-up', u.key);
    expect(settings.body).toMatchObject({ enabled: false, in_flight_payment_id: null, disabled_reason: expect.stringMatching(/failed.*declined/) });
    const payments = await h.json('GET', '/users/me/payments', u.key);
    expect(payments.body.data[0]).toMatchObject({ kind: 'auto_top_up', status: 'failed' });
    expect(await balanceMicros(accountId)).toBe(4_000_000n);
    // Switching it on again clears the reason.
    await saveCard(h, 'stripe', '/users/me', u.key);
    expect((await h.json('PUT', '/users/me/auto-top-up', u.key, { enabled: true })).body).toMatchObject({ enabled: true, disabled_reason: null });
  });
});
