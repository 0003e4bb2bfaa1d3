// POST /api/v1/promotions/redeem: a user redeems a code for their personal account (default) or for an
// organization they may manage billing for. In one transaction: check the code, count the redemption
// with a single conditional UPDATE (so concurrent redemptions cannot exceed maxRedemptions), grant.
//   404 unknown code · 410 past redeemableUntil or deactivated · 409 already redeemed by this account, or
//   every redemption used up. A refused redemption changes nothing (the transaction rolls back).
// Guessing codes is throttled: after GUESS_LIMIT unknown codes within an hour a user gets 429 until the
// hour since their first miss has passed, for any code (so a hit cannot be told from a miss meanwhile).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { updateCounter, type Counter } from '@/server/auth/throttle-store';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { normalizePromotionCode } from './create-promotion';
import { grantPromotionInTx, promotionGrantSelect, toPromotionGrantDto, type PromotionGrantDto } from './grant-promotion';

export const redeemPromotionInput = z.object({
  code: safeString().trim().min(1, 'code is required').max(64),
  account_id: safeString().min(1).max(100).optional().describe('Account to credit: your personal account (default) or an organization where you have billing:manage'),
});
export type RedeemPromotionInput = z.input<typeof redeemPromotionInput>;

export async function redeemPromotion(p: { userId: string; input: RedeemPromotionInput; now?: Date }): Promise<PromotionGrantDto> {
  const input = redeemPromotionInput.parse(p.input);
  const now = p.now ?? new Date();
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: { personalAccountId: true } });
  if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
  const accountId = input.account_id ?? user.personalAccountId;
  await assertAccountAccess({ userId: p.userId, accountId, permission: 'billing:manage' });
  const code = normalizePromotionCode(input.code);
  await assertNotGuessing(p.userId, now.getTime());

  const grantId = await prisma.$transaction(async (tx) => {
    const promotion = await tx.promotion.findUnique({
      where: { code },
      select: { id: true, code: true, name: true, amountMicros: true, creditTtlDays: true, active: true, redeemableUntil: true, maxRedemptions: true },
    });
    if (!promotion) {
      await countMiss(p.userId, now.getTime());
      throw new AppError('not_found', `Unknown promotion code ${code}`);
    }
    assertRedeemable(promotion, now);
    const already = await tx.promotionGrant.findUnique({ where: { promotionId_accountId: { promotionId: promotion.id, accountId } }, select: { id: true } });
    if (already) throw alreadyRedeemed(code);

    const counted = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Promotion" SET "redemptions" = "redemptions" + 1
      WHERE id = ${promotion.id} AND "active"
        AND ("maxRedemptions" IS NULL OR "redemptions" < "maxRedemptions")
        AND ("redeemableUntil" IS NULL OR "redeemableUntil" > ${now})
      RETURNING id`;
    if (counted.length === 0) {
      // Lost a race: re-read to say why (deactivated or expired meanwhile, or the last redemption taken).
      const latest = await tx.promotion.findUniqueOrThrow({ where: { id: promotion.id }, select: { active: true, redeemableUntil: true, maxRedemptions: true } });
      assertRedeemable(latest, now);
      throw new AppError('conflict', `Promotion code ${code} has been fully redeemed`, { reason: 'exhausted', max_redemptions: latest.maxRedemptions });
    }
    const granted = await grantPromotionInTx(tx, { promotion, accountId, now, actorUserId: p.userId, auditAction: 'promotion.redeem' });
    // A concurrent redemption for the same account won; throwing rolls our count back.
    if (!granted.created) throw alreadyRedeemed(code);
    return granted.grantId;
  });
  const grant = await prisma.promotionGrant.findUniqueOrThrow({ where: { id: grantId }, select: promotionGrantSelect });
  return toPromotionGrantDto(grant, now);
}

function assertRedeemable(p: { active: boolean; redeemableUntil: Date | null }, now: Date): void {
  if (!p.active) throw new AppError('gone', 'This promotion is no longer available', { reason: 'inactive' });
  if (p.redeemableUntil && p.redeemableUntil <= now) {
    throw new AppError('gone', `This promotion code expired on ${p.redeemableUntil.toISOString()}`, { reason: 'expired', redeemable_until: p.redeemableUntil.toISOString() });
  }
}

function alreadyRedeemed(code: string): AppError {
  return new AppError('conflict', `Promotion code ${code} has already been redeemed for this account`, { reason: 'already_redeemed' });
}

export const GUESS_LIMIT = 20;
const GUESS_WINDOW_MS = 60 * 60_000;
const guessKey = (userId: string) => `promotion-guess:${userId}`;
const live = (c: Counter | null, now: number) => (c && now - c.first < GUESS_WINDOW_MS ? c : null);

async function assertNotGuessing(userId: string, now: number): Promise<void> {
  const c = live(await updateCounter(guessKey(userId), (cur) => cur, GUESS_WINDOW_MS, now), now);
  if (c && c.count >= GUESS_LIMIT) {
    const seconds = Math.max(1, Math.ceil((c.first + GUESS_WINDOW_MS - now) / 1000));
    throw new AppError('rate_limited', `Too many unknown promotion codes. Try again in ${seconds} s.`, { retry_after_seconds: seconds }, { 'retry-after': String(seconds) });
  }
}

async function countMiss(userId: string, now: number): Promise<void> {
  await updateCounter(guessKey(userId), (cur) => {
    const c = live(cur, now);
    return c ? { ...c, count: c.count + 1, last: now } : { count: 1, first: now, last: now };
  }, GUESS_WINDOW_MS, now);
}
