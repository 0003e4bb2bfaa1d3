import { db } from '@/server/db';
import { providerKeySelect, toProviderKeyDto, type ProviderKeyDto } from './provider-key-dto';

/** An account's own provider keys, masked, by provider id. The caller has checked who may see them. */
export async function listProviderKeys(p: { accountId: string }): Promise<ProviderKeyDto[]> {
  const prisma = await db();
  const rows = await prisma.providerKey.findMany({ where: { accountId: p.accountId }, select: providerKeySelect, orderBy: { provider: 'asc' } });
  return rows.map(toProviderKeyDto);
}
