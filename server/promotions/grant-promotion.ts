// Granting a promotion to an account: a PromotionGrant row holding the credit (spent first, by expiry, in
// settle-generation.ts) and a PROMOTION ledger entry adding it to Account.promoMicros, in one transaction.
// At most once per (promotion, account): the grant's unique index decides, and a second attempt, even a
// concurrent one, finds the first grant and changes nothing.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';
import { postLedgerEntry, type Tx } from '@/server/ledger/post-ledger-entry';

const DAY_MS = 86_400_000;

export interface GrantablePromotion {
  id: string;
  code: string | null;
  name: string;
  amountMicros: bigint;
  creditTtlDays: number | null;
}

export const promotionGrantSelect = {
  id: true,
  accountId: true,
  amountMicros: true,
  remainingMicros: true,
  expiresAt: true,
  expiredAt: true,
  createdAt: true,
  promotion: { select: { id: true, code: true, name: true, description: true } },
} as const;

type GrantRow = {
  id: string;
  accountId: string;
  amountMicros: bigint;
  remainingMicros: bigint;
  expiresAt: Date | null;
  expiredAt: Date | null;
  createdAt: Date;
  promotion: { id: string; code: string | null; name: string; description: string } | null;
};

export function toPromotionGrantDto(g: GrantRow, now = new Date()) {
  const status = g.expiredAt || (g.expiresAt && g.expiresAt <= now) ? 'expired' : g.remainingMicros <= 0n ? 'used' : 'active';
  return {
    id: g.id,
    account_id: g.accountId,
    promotion_id: g.promotion?.id ?? null,
    code: g.promotion?.code ?? null,
    name: g.promotion?.name ?? 'Promotional credit',
    description: g.promotion?.description ?? '',
    amount: microsToUsd(g.amountMicros),
    amount_micros: g.amountMicros.toString(),
    remaining: microsToUsd(g.remainingMicros),
    remaining_micros: g.remainingMicros.toString(),
    expires_at: g.expiresAt?.toISOString() ?? null,
    status: status as 'active' | 'used' | 'expired',
    created_at: g.createdAt.toISOString(),
  };
}
export type PromotionGrantDto = ReturnType<typeof toPromotionGrantDto>;

export interface GrantResult {
  grantId: string;
  /** false: the account already had this promotion; nothing changed. */
  created: boolean;
}

/** Inside the caller's transaction (redeem counts the redemption in the same one). */
export async function grantPromotionInTx(tx: Tx, p: { promotion: GrantablePromotion; accountId: string; now: Date; actorUserId?: string; auditAction: 'promotion.redeem' | 'promotion.grant' }): Promise<GrantResult> {
  const { promotion, accountId, now } = p;
  const expiresAt = promotion.creditTtlDays ? new Date(now.getTime() + promotion.creditTtlDays * DAY_MS) : null;
  // The account's row lock before the grant's insert. The insert takes FOR KEY SHARE on the account (its foreign
  // key); asking for FOR NO KEY UPDATE afterwards (postLedgerEntry) queues behind a transaction already waiting
  // for the account, which holds the row's tuple lock while it waits: with a third transaction holding the
  // account, that is a cycle (post-ledger-entry.ts tells the same story of a settlement). Lock first, then insert.
  await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${accountId} FOR NO KEY UPDATE`;
  // ON CONFLICT DO NOTHING: a concurrent duplicate neither fails nor aborts the transaction.
  const { count } = await tx.promotionGrant.createMany({
    data: [{ promotionId: promotion.id, accountId, amountMicros: promotion.amountMicros, remainingMicros: promotion.amountMicros, expiresAt, createdAt: now }],
    skipDuplicates: true,
  });
  const grant = await tx.promotionGrant.findUnique({ where: { promotionId_accountId: { promotionId: promotion.id, accountId } }, select: { id: true } });
  if (!grant) throw new AppError('internal', 'Promotion grant vanished');
  if (count === 0) return { grantId: grant.id, created: false };
  await postLedgerEntry(tx, {
    accountId,
    kind: 'PROMOTION',
    paidMicros: 0n,
    promoMicros: promotion.amountMicros,
    idempotencyKey: `promotion:${grant.id}`,
    promotionGrantId: grant.id,
    actorUserId: p.actorUserId,
    note: `Promotion ${promotion.code ?? promotion.name}`,
  });
  await recordAudit(tx, {
    accountId,
    action: p.auditAction,
    target: { type: 'promotion_grant', id: grant.id },
    after: { promotion_id: promotion.id, code: promotion.code, name: promotion.name, amount: microsToUsd(promotion.amountMicros), expires_at: expiresAt?.toISOString() ?? null },
  });
  return { grantId: grant.id, created: true };
}

/**
 * An operator grant (CLI): no code, deadline or redemption limit is checked, but the grant is counted as a
 * redemption. Idempotent: granting the same promotion to the same account again returns the first grant.
 */
export async function grantPromotion(p: { promotionId: string; accountId: string; actorUserId?: string; now?: Date }): Promise<{ grant: PromotionGrantDto; created: boolean }> {
  const prisma = await db();
  const now = p.now ?? new Date();
  const result = await prisma.$transaction(async (tx) => {
    // Lock the promotion first, as redemption does (its counting UPDATE), so the two cannot deadlock.
    const [promotion] = await tx.$queryRaw<GrantablePromotion[]>`
      SELECT id, code, name, "amountMicros", "creditTtlDays" FROM "Promotion" WHERE id = ${p.promotionId} FOR NO KEY UPDATE`;
    if (!promotion) throw new AppError('not_found', 'Promotion not found');
    const account = await tx.account.findUnique({ where: { id: p.accountId }, select: { id: true } });
    if (!account) throw new AppError('not_found', 'Account not found');
    const r = await grantPromotionInTx(tx, { promotion, accountId: p.accountId, now, actorUserId: p.actorUserId, auditAction: 'promotion.grant' });
    if (r.created) await tx.promotion.update({ where: { id: promotion.id }, data: { redemptions: { increment: 1 } } });
    return r;
  });
  const grant = await prisma.promotionGrant.findUniqueOrThrow({ where: { id: result.grantId }, select: promotionGrantSelect });
  return { grant: toPromotionGrantDto(grant, now), created: result.created };
}
