// Who may change or delete an API key, decided once for PATCH and DELETE /api/v1/api-keys/{key_id}:
// the key's creator, or an owner/admin (keys:manage-all) of the organization the key bills to. A deleted
// key, another tenant's key, or (for a caller that is an organization's API key) a key of another account
// is a 404: strangers learn nothing. A member of the key's organization without keys:manage-all gets 403.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';

export interface ManageableApiKey {
  id: string;
  name: string;
  hint: string;
  userId: string;
  accountId: string;
}

export interface ManageableApiKeyQuery {
  userId: string;
  keyId: string;
  /** The caller is an API key bound to this organization: it may only manage that organization's keys. */
  withinAccountId?: string;
}

/**
 * Not inside a transaction: the role lookup runs on its own connection, which on the embedded database would
 * wait for the caller's transaction to end. Callers that write re-read the row in their transaction.
 */
export async function findManageableApiKeyOrThrow(p: ManageableApiKeyQuery): Promise<ManageableApiKey> {
  const prisma = await db();
  const key = await prisma.apiKey.findUnique({ where: { id: p.keyId }, select: { id: true, name: true, hint: true, userId: true, accountId: true, deletedAt: true } });
  if (!key || key.deletedAt || (p.withinAccountId !== undefined && key.accountId !== p.withinAccountId)) throw new AppError('not_found', 'API key not found');
  if (key.userId !== p.userId) {
    // Someone else's key: allowed only to organization admins; strangers learn nothing (404).
    await assertAccountAccess({ userId: p.userId, accountId: key.accountId, permission: 'keys:manage-all' }).catch((err) => {
      throw err.code === 'forbidden' ? err : new AppError('not_found', 'API key not found');
    });
  }
  return { id: key.id, name: key.name, hint: key.hint, userId: key.userId, accountId: key.accountId };
}
