// GET /users/{id}/promotions and /organizations/{id}/promotions: an account's active promotional credit,
// soonest to expire first (the order in which usage spends it).
import { db } from '@/server/db';
import { promotionGrantSelect, toPromotionGrantDto, type PromotionGrantDto } from './grant-promotion';

export async function listActivePromotionGrants(p: { accountId: string; now?: Date }): Promise<PromotionGrantDto[]> {
  const now = p.now ?? new Date();
  const prisma = await db();
  const rows = await prisma.promotionGrant.findMany({
    where: { accountId: p.accountId, expiredAt: null, remainingMicros: { gt: 0n }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: [{ expiresAt: { sort: 'asc', nulls: 'last' } }, { createdAt: 'asc' }],
    select: promotionGrantSelect,
    take: 500,
  });
  return rows.map((g) => toPromotionGrantDto(g, now));
}
