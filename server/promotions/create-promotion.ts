// Promotions are created by operators (CLI `promotion:create`). A promotion with a code can be redeemed by
// users (redeem-promotion.ts); any promotion can be granted to an account by an operator (grant-promotion.ts).
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';

export const PROMOTION_CODE = /^[A-Z0-9][A-Z0-9_-]{2,63}$/;

/** Codes are case-insensitive: stored and compared upper-case, surrounding spaces ignored. */
export function normalizePromotionCode(code: string): string {
  return code.trim().toUpperCase();
}

export interface CreatePromotionInput {
  code?: string | null;
  name?: string;
  description?: string;
  /** Credit granted per redemption. */
  amountMicros: bigint;
  /** Granted credit expires this many days after it is granted (null: never). */
  creditTtlDays?: number | null;
  /** The code cannot be redeemed from this time on (null: no deadline). */
  redeemableUntil?: Date | null;
  maxRedemptions?: number | null;
}

export const promotionSelect = {
  id: true,
  code: true,
  name: true,
  description: true,
  amountMicros: true,
  creditTtlDays: true,
  redeemableUntil: true,
  maxRedemptions: true,
  redemptions: true,
  active: true,
  createdAt: true,
} as const;

type PromotionRow = {
  id: string;
  code: string | null;
  name: string;
  description: string;
  amountMicros: bigint;
  creditTtlDays: number | null;
  redeemableUntil: Date | null;
  maxRedemptions: number | null;
  redemptions: number;
  active: boolean;
  createdAt: Date;
};

export function toPromotionDto(p: PromotionRow) {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    description: p.description,
    amount: microsToUsd(p.amountMicros),
    amount_micros: p.amountMicros.toString(),
    credit_ttl_days: p.creditTtlDays,
    redeemable_until: p.redeemableUntil?.toISOString() ?? null,
    max_redemptions: p.maxRedemptions,
    redemptions: p.redemptions,
    active: p.active,
    created_at: p.createdAt.toISOString(),
  };
}
export type PromotionDto = ReturnType<typeof toPromotionDto>;

export async function createPromotion(input: CreatePromotionInput): Promise<PromotionDto> {
  const code = input.code ? normalizePromotionCode(input.code) : null;
  if (code !== null && !PROMOTION_CODE.test(code)) {
    throw new AppError('bad_request', 'A promotion code is 3–64 letters, digits, "-" or "_", starting with a letter or digit');
  }
  if (input.amountMicros <= 0n || input.amountMicros > 1_000_000_000_000n) throw new AppError('bad_request', 'The amount must be between $0.000001 and $1,000,000');
  if (input.creditTtlDays != null && (!Number.isInteger(input.creditTtlDays) || input.creditTtlDays < 1 || input.creditTtlDays > 3650)) {
    throw new AppError('bad_request', 'Credit expiry must be a whole number of days between 1 and 3650');
  }
  if (input.maxRedemptions != null && (!Number.isInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    throw new AppError('bad_request', 'Maximum redemptions must be a positive whole number');
  }
  const name = input.name?.trim() || code || 'Promotional credit';
  const prisma = await db();
  try {
    const row = await prisma.promotion.create({
      data: {
        code,
        name,
        description: input.description ?? '',
        amountMicros: input.amountMicros,
        creditTtlDays: input.creditTtlDays ?? null,
        redeemableUntil: input.redeemableUntil ?? null,
        maxRedemptions: input.maxRedemptions ?? null,
      },
      select: promotionSelect,
    });
    return toPromotionDto(row);
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new AppError('conflict', `A promotion with code ${code} already exists`);
    throw err;
  }
}
