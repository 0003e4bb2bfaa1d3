import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { recordAudit } from '@/server/audit/record-audit';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { apiKeyAuditView, apiKeySelect } from './create-api-key';

/**
 * Deletes (revokes) a key. Effective on the very next request: authentication reads the key row on every
 * request and refuses rows with deletedAt set. The row stays for the usage history.
 * Callers: the key's creator, or an owner/admin of the organization the key bills to. `withinAccountId`: the
 * caller is an API key bound to that organization, which may only delete that organization's keys.
 */
export async function deleteApiKey(p: { userId: string; keyId: string; withinAccountId?: string }): Promise<void> {
  const prisma = await db();
  const key = await prisma.apiKey.findUnique({ where: { id: p.keyId }, select: { id: true, userId: true, accountId: true, deletedAt: true } });
  if (!key || key.deletedAt || (p.withinAccountId !== undefined && key.accountId !== p.withinAccountId)) throw new AppError('not_found', 'API key not found');
  if (key.userId !== p.userId) {
    // Someone else's key: allowed only to organization admins; strangers learn nothing (404).
    await assertAccountAccess({ userId: p.userId, accountId: key.accountId, permission: 'keys:manage-all' }).catch((err) => {
      throw err.code === 'forbidden' ? err : new AppError('not_found', 'API key not found');
    });
  }
  await prisma.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id: key.id }, select: apiKeySelect });
    const deleted = await tx.apiKey.updateMany({ where: { id: key.id, deletedAt: null }, data: { deletedAt: new Date(), deletedById: p.userId } });
    // A concurrent delete of the same key won: it is the one recorded.
    if (deleted.count === 1 && before) await recordAudit(tx, { accountId: key.accountId, action: 'api_key.delete', target: { type: 'api_key', id: key.id }, before: apiKeyAuditView(before) });
  });
}
