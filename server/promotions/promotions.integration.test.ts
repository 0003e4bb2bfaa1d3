// Promotions end to end: created with the CLI command, redeemed through HTTP (every refusal status),
// counted atomically under concurrency, granted idempotently, spent first, and expired exactly once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCommand } from '@/server/cli/commands';
import { db } from '@/server/db';
import { getBalanceOrThrow } from '@/server/ledger/balance';
import { reserveCredits } from '@/server/ledger/reserve';
import { settleGeneration } from '@/server/ledger/settle-generation';
import { startReservationSweeper } from '@/server/ledger/sweep-reservations';
import { startApiServer, type ApiServer } from '@/test/api-server';
import { describeEachDatabase } from '@/test/db';
import { apiCaller, createTestOrganization, createTestUser } from '@/test/factories';
import { createPromotion } from './create-promotion';
import { expirePromotionGrants } from './expire-promotion-grants';
import { GUESS_LIMIT } from './redeem-promotion';

const DAY = 86_400_000;
const code = () => `P${randomUUID().slice(0, 8).toUpperCase()}`;

describeEachDatabase('promotions', () => {
  let api: ApiServer;
  const call = apiCaller(() => api.origin);
  beforeAll(async () => {
    api = await startApiServer();
  });
  afterAll(() => api?.close());

  const redeem = async (key: string, body: unknown) => {
    const res = await call('POST', '/promotions/redeem', key, body);
    return { status: res.status, body: await res.json() };
  };

  it('promotion:create (CLI) → redeem → credit is promotional, listed, and spent before paid credit', async () => {
    const c = code();
    const created = await runCommand('promotion:create', { code: ` ${c.toLowerCase()} `, amount: '10', 'expires-days': '30', 'max-redemptions': '5', name: 'Welcome' });
    expect(created.data.promotion).toMatchObject({ code: c, name: 'Welcome', amount: 10, credit_ttl_days: 30, max_redemptions: 5, redemptions: 0, active: true });
    await expect(runCommand('promotion:create', { code: c, amount: '1' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(runCommand('promotion:create', { code: 'x', amount: '1' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(runCommand('promotion:create', { code: code(), amount: '-1' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(runCommand('promotion:create', { code: code(), amount: '1', 'expires-days': 'soon' })).rejects.toMatchObject({ code: 'bad_request' });

    const u = await createTestUser(1);
    const r = await redeem(u.key, { code: c.toLowerCase() });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ account_id: u.user.personal_account_id, code: c, name: 'Welcome', amount: 10, remaining: 10, status: 'active' });
    expect(Date.parse(r.body.data.expires_at) - Date.now()).toBeGreaterThan(29.9 * DAY);
    const bal = await (await call('GET', '/users/me/balance', u.key)).json();
    expect(bal).toMatchObject({ balance: 11, paid: 1, promotional: 10 });
    const listed = await (await call('GET', '/users/me/promotions', u.key)).json();
    expect(listed.data.map((g: any) => g.id)).toEqual([r.body.data.id]);
    const entry = await (await db()).ledgerEntry.findFirstOrThrow({ where: { accountId: u.user.personal_account_id, kind: 'PROMOTION' } });
    expect(entry).toMatchObject({ promoMicros: 10_000_000n, paidMicros: 0n, promotionGrantId: r.body.data.id });

    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.user.personal_account_id, generationId: gen, amountMicros: 3_000_000n });
    await settleGeneration({ generationId: gen, accountId: u.user.personal_account_id, costMicros: 2_500_000n, usage: { model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status: 'SUCCESS', streamed: false } });
    const after = await (await call('GET', '/users/me/promotions', u.key)).json();
    expect(after.data[0]).toMatchObject({ remaining: 7.5 });
    expect(await getBalanceOrThrow(u.user.personal_account_id)).toMatchObject({ paidMicros: 1_000_000n, promoMicros: 7_500_000n });
  });

  it('refuses: 404 unknown, 409 already redeemed, 409 exhausted, 410 expired or withdrawn, 400 without a code', async () => {
    const c = code();
    await createPromotion({ code: c, amountMicros: 1_000_000n, maxRedemptions: 2 });
    const [a, b, d] = await Promise.all([createTestUser(), createTestUser(), createTestUser()]);
    expect((await redeem(a.key, { code: c })).status).toBe(201);
    const again = await redeem(a.key, { code: c });
    expect(again.status).toBe(409);
    expect(again.body.error.metadata.reason).toBe('already_redeemed');
    expect((await redeem(b.key, { code: c })).status).toBe(201);
    const exhausted = await redeem(d.key, { code: c });
    expect(exhausted.status).toBe(409);
    expect(exhausted.body.error.metadata.reason).toBe('exhausted');
    expect((await redeem(d.key, { code: 'NO-SUCH-CODE' })).status).toBe(404);
    expect((await redeem(d.key, {})).status).toBe(400);

    const expiredCode = code();
    await createPromotion({ code: expiredCode, amountMicros: 1n, redeemableUntil: new Date(Date.now() - 1000) });
    const expired = await redeem(d.key, { code: expiredCode });
    expect(expired.status).toBe(410);
    expect(expired.body.error.metadata.reason).toBe('expired');
    const withdrawn = await createPromotion({ code: code(), amountMicros: 1n });
    await (await db()).promotion.update({ where: { id: withdrawn.id }, data: { active: false } });
    expect((await redeem(d.key, { code: withdrawn.code })).status).toBe(410);
    // Refusals change nothing.
    const p = await (await db()).promotion.findUniqueOrThrow({ where: { code: c } });
    expect(p.redemptions).toBe(2);
    expect((await getBalanceOrThrow(d.user.personal_account_id)).totalMicros).toBe(0n);
  });

  it('throttles code guessing: after 20 unknown codes in an hour every redemption is 429 for a while', async () => {
    const u = await createTestUser();
    const c = code();
    await createPromotion({ code: c, amountMicros: 1n });
    for (let i = 0; i < GUESS_LIMIT; i++) expect((await redeem(u.key, { code: `GUESS-${i}` })).status).toBe(404);
    const blocked = await call('POST', '/promotions/redeem', u.key, { code: c });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(3000);
    const other = await createTestUser();
    expect((await redeem(other.key, { code: c })).status).toBe(201); // per user
  });

  it('counts redemptions atomically: 12 users racing for 3 redemptions, one account racing itself', async () => {
    const c = code();
    await createPromotion({ code: c, amountMicros: 500_000n, maxRedemptions: 3 });
    const users = await Promise.all(Array.from({ length: 12 }, () => createTestUser()));
    const results = await Promise.all(users.map((u) => redeem(u.key, { code: c })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const prisma = await db();
    const promo = await prisma.promotion.findUniqueOrThrow({ where: { code: c }, select: { id: true, redemptions: true } });
    expect(promo.redemptions).toBe(3);
    expect(await prisma.promotionGrant.count({ where: { promotionId: promo.id } })).toBe(3);

    const solo = code();
    await createPromotion({ code: solo, amountMicros: 500_000n });
    const u = await createTestUser();
    const same = await Promise.all(Array.from({ length: 6 }, () => redeem(u.key, { code: solo })));
    expect(same.filter((r) => r.status === 201)).toHaveLength(1);
    expect(same.filter((r) => r.status === 409)).toHaveLength(5);
    expect((await getBalanceOrThrow(u.user.personal_account_id)).promoMicros).toBe(500_000n);
    expect((await prisma.promotion.findUniqueOrThrow({ where: { code: solo } })).redemptions).toBe(1);
  });

  it('organizations: redeemed by owners or billing members (billing:manage), listed with billing:read', async () => {
    const [owner, member] = await Promise.all([createTestUser(), createTestUser()]);
    const org = await createTestOrganization({ members: [{ userId: owner.user.id, role: 'OWNER' }, { userId: member.user.id, role: 'MEMBER' }] });
    const c = code();
    await createPromotion({ code: c, amountMicros: 2_000_000n });
    expect((await redeem(member.key, { code: c, account_id: org.id })).status).toBe(403);
    const ok = await redeem(owner.key, { code: c, account_id: org.id });
    expect(ok.status).toBe(201);
    expect(ok.body.data.account_id).toBe(org.id);
    const list = await call('GET', `/organizations/${org.id}/promotions`, owner.key);
    expect((await list.json()).data.map((g: any) => g.code)).toEqual([c]);
    expect((await call('GET', `/organizations/${org.id}/promotions`, member.key)).status).toBe(403);
    expect((await redeem(owner.key, { code: c, account_id: member.user.personal_account_id })).status).toBe(404);
  });

  it('promotion:grant (CLI) is idempotent per promotion and account', async () => {
    const c = code();
    await createPromotion({ code: c, amountMicros: 1_500_000n });
    const u = await createTestUser();
    const first = await runCommand('promotion:grant', { code: c, email: u.user.email });
    const second = await runCommand('promotion:grant', { code: c, email: u.user.email });
    expect(first.data.created).toBe(true);
    expect(second.data.created).toBe(false);
    const prisma = await db();
    expect(await prisma.ledgerEntry.count({ where: { accountId: u.user.personal_account_id, kind: 'PROMOTION' } })).toBe(1);
    expect((await getBalanceOrThrow(u.user.personal_account_id)).promoMicros).toBe(1_500_000n);
    expect((await prisma.promotion.findUniqueOrThrow({ where: { code: c } })).redemptions).toBe(1);
    await expect(runCommand('promotion:grant', { code: 'NOPE-NOPE', email: u.user.email })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('expiry removes what is left exactly once, and the sweeper loop runs it', async () => {
    const c = code();
    await createPromotion({ code: c, amountMicros: 4_000_000n, creditTtlDays: 1 });
    const u = await createTestUser(1);
    const grant = (await redeem(u.key, { code: c })).body.data;
    const gen = `gen-${randomUUID()}`;
    await reserveCredits({ accountId: u.user.personal_account_id, generationId: gen, amountMicros: 1_000_000n });
    await settleGeneration({ generationId: gen, accountId: u.user.personal_account_id, costMicros: 1_000_000n, usage: { model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, latencyMs: 1, status: 'SUCCESS', streamed: false } });

    expect(await expirePromotionGrants(new Date())).toBe(0); // not due yet
    const later = new Date(Date.now() + 2 * DAY);
    expect(await expirePromotionGrants(later)).toBe(1);
    expect(await expirePromotionGrants(later)).toBe(0);
    const prisma = await db();
    const entries = await prisma.ledgerEntry.findMany({ where: { promotionGrantId: grant.id, kind: 'PROMOTION_EXPIRY' } });
    expect(entries).toHaveLength(1);
    expect(entries[0].promoMicros).toBe(-3_000_000n);
    expect(await prisma.promotionGrant.findUniqueOrThrow({ where: { id: grant.id } })).toMatchObject({ remainingMicros: 0n, expiredAt: later });
    expect(await getBalanceOrThrow(u.user.personal_account_id)).toMatchObject({ paidMicros: 1_000_000n, promoMicros: 0n });
    expect((await (await call('GET', '/users/me/promotions', u.key)).json()).data).toEqual([]);

    // The maintenance loop started by server/main.ts expires due grants on its own.
    const c2 = code();
    await createPromotion({ code: c2, amountMicros: 2_000_000n, creditTtlDays: 1 });
    const g2 = (await redeem(u.key, { code: c2 })).body.data;
    await prisma.promotionGrant.update({ where: { id: g2.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const stop = startReservationSweeper(50);
    try {
      await expect.poll(async () => (await prisma.promotionGrant.findUniqueOrThrow({ where: { id: g2.id } })).expiredAt, { timeout: 5_000 }).not.toBeNull();
    } finally {
      stop();
    }
    expect((await getBalanceOrThrow(u.user.personal_account_id)).promoMicros).toBe(0n);
  });
});
