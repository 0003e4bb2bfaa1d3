// DELETE …/provider-keys/{provider}: the account's requests to that provider go back to the operator's keys.
// Any provider id is accepted (a key for a provider since removed from the routing table can still go).
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { providerKeySelect, toProviderKeyDto } from './provider-key-dto';

export async function deleteProviderKey(p: { accountId: string; provider: string }): Promise<{ deleted: true; provider: string }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const where = { accountId_provider: { accountId: p.accountId, provider: p.provider } };
    const before = await tx.providerKey.findUnique({ where, select: providerKeySelect });
    if (!before) throw new AppError('not_found', `No key of yours is stored for provider "${p.provider}"`, { provider: p.provider });
    await tx.providerKey.delete({ where });
    await recordAudit(tx, { accountId: p.accountId, action: 'provider_key.delete', target: { type: 'provider_key', id: p.provider }, before: toProviderKeyDto(before), after: null });
    return { deleted: true as const, provider: p.provider };
  });
}
