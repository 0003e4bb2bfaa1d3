import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';

/**
 * Deletes (revokes) a key. Effective on the very next request: authentication reads the key row on every
 * request and refuses rows with deletedAt set. The row stays for the usage history.
 * Callers: the key's creator, or an owner/admin of the organization the key bills to. `withinAccountId`: the
 * caller is an API key bound to that organization, which may only delete that organization's keys.
 */
export async function deleteApiKey(p: { userId: string; keyId: string; withinAccountId?: string }): Promise<void> {
  const prisma = await db();
  const key = await prisma.apiKey.findUnique({ where: { id: p.keyId }, select: { id: true, name: true, hint: true, userId: true, accountId: true, deletedAt: true } });
  if (!key || key.deletedAt || (p.withinAccountId !== undefined && key.accountId !== p.withinAccountId)) throw new AppError('not_found', 'API key not found');
  if (key.userId !== p.userId) {
    // Someone else's key: allowed only to organization admins; strangers learn nothing (404).
    await assertAccountAccess({ userId: p.userId, accountId: key.accountId, permission: 'keys:manage-all' }).catch((err) => {
      throw err.code === 'forbidden' ? err : new AppError('not_found', 'API key not found');
    });
  }
  await prisma.$transaction(async (tx) => {
    const deleted = await tx.apiKey.updateMany({ where: { id: key.id, deletedAt: null }, data: { deletedAt: new Date(), deletedById: p.userId } });
    // Only the call that deleted it reports it (two concurrent deletions: one event).
    if (deleted.count === 1) {
      await recordAccountEvent(tx, { accountId: key.accountId, type: 'key.deleted', data: { api_key: { id: key.id, name: key.name, hint: key.hint, user_id: key.userId }, deleted_by: p.userId, reason: 'deleted' } });
    }
  });
}
