import { db } from '@/server/db';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { apiKeySelect, toApiKeyDto, type ApiKeyDto } from './create-api-key';

/** The caller's own live keys (all accounts). */
export async function listApiKeys(p: { userId: string }): Promise<ApiKeyDto[]> {
  const prisma = await db();
  const rows = await prisma.apiKey.findMany({ where: { userId: p.userId, deletedAt: null }, select: apiKeySelect, orderBy: { createdAt: 'desc' } });
  return rows.map(toApiKeyDto);
}

/** An account's live keys: every key for owners and admins, only their own for other members. */
export async function listAccountApiKeys(p: { userId: string; accountId: string }): Promise<ApiKeyDto[]> {
  const access = await assertAccountAccess({ userId: p.userId, accountId: p.accountId, permission: 'keys:create' });
  const all = access.role === 'OWNER' || access.role === 'ADMIN';
  const prisma = await db();
  const rows = await prisma.apiKey.findMany({
    where: { accountId: p.accountId, deletedAt: null, ...(all ? {} : { userId: p.userId }) },
    select: apiKeySelect,
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(toApiKeyDto);
}
