// PUT …/provider-keys/{provider}: stores (or replaces) an account's own key for one provider of the routing
// table, encrypted with AES-256-GCM (crypto/secret-box.ts). The key is never returned, logged or audited:
// responses and the audit entry carry the provider and a hint only. The caller has checked who may.
import { recordAudit } from '@/server/audit/record-audit';
import { encryptSecret, SecretBoxError, secretHint } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import type { RoutingTable } from '@/server/routing/routing-table';
import { byokProviderOrThrow } from './byok-providers';
import { providerKeySelect, setProviderKeyInput, toProviderKeyDto, type ProviderKeyDto, type SetProviderKeyInput } from './provider-key-dto';

function encryptOrThrow(key: string): string {
  try {
    return encryptSecret(key);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    const why = env().embedded ? err.message : 'ENCRYPTION_KEY is not set, and on PostgreSQL one is needed to store a key';
    throw new AppError('bad_request', `Cannot store a provider key: ${why}. The operator must set ENCRYPTION_KEY (32 bytes, base64 or hex) on every instance.`);
  }
}

export async function setProviderKey(p: {
  accountId: string;
  actorUserId: string;
  provider: string;
  input: SetProviderKeyInput;
  routing: RoutingTable;
}): Promise<ProviderKeyDto> {
  const { key } = setProviderKeyInput.parse(p.input);
  const provider = byokProviderOrThrow(p.routing, p.provider);
  // Before the transaction: a missing encryption key is the caller's 400 before anything is locked.
  const encryptedKey = encryptOrThrow(key);
  const hint = secretHint(key);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const where = { accountId_provider: { accountId: p.accountId, provider: provider.id } };
    const before = await tx.providerKey.findUnique({ where, select: providerKeySelect });
    const row = await tx.providerKey.upsert({
      where,
      create: { accountId: p.accountId, provider: provider.id, encryptedKey, hint, createdById: p.actorUserId },
      update: { encryptedKey, hint },
      select: providerKeySelect,
    });
    const data = toProviderKeyDto(row);
    await recordAudit(tx, {
      accountId: p.accountId,
      action: 'provider_key.set',
      target: { type: 'provider_key', id: provider.id },
      before: before ? toProviderKeyDto(before) : null,
      after: data,
    });
    return data;
  });
}
