import { db } from '@/server/db';
import { recordAudit } from '@/server/audit/record-audit';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { apiKeyAuditView, apiKeySelect } from './create-api-key';
import { findManageableApiKeyOrThrow } from './find-manageable-api-key';

/**
 * Deletes (revokes) a key. Effective on the very next request: authentication reads the key row on every
 * request and refuses rows with deletedAt set. The row stays for the usage history.
 * Callers: the key's creator, or an owner/admin of the organization the key bills to. `withinAccountId`: the
 * caller is an API key bound to that organization, which may only delete that organization's keys.
 */
export async function deleteApiKey(p: { userId: string; keyId: string; withinAccountId?: string }): Promise<void> {
  const key = await findManageableApiKeyOrThrow(p);
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const before = await tx.apiKey.findUnique({ where: { id: key.id }, select: apiKeySelect });
    const deleted = await tx.apiKey.updateMany({ where: { id: key.id, deletedAt: null }, data: { deletedAt: new Date(), deletedById: p.userId } });
    // Only the call that deleted it reports and records it (two concurrent deletions: one event, one entry).
    if (deleted.count === 1) {
      await recordAccountEvent(tx, { accountId: key.accountId, type: 'key.deleted', data: { api_key: { id: key.id, name: key.name, hint: key.hint, user_id: key.userId }, deleted_by: p.userId, reason: 'deleted' } });
      if (before) await recordAudit(tx, { accountId: key.accountId, action: 'api_key.delete', target: { type: 'api_key', id: key.id }, before: apiKeyAuditView(before) });
    }
  });
}
