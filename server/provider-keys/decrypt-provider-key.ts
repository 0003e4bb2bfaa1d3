// For the gateway: an account's own key for a provider, in clear, at the moment it is sent upstream. Nothing
// here logs or returns it anywhere else.
import { decryptSecret, SecretBoxError } from '@/server/crypto/secret-box';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';

/**
 * The plaintext of a stored ProviderKey.encryptedKey. A row that no longer decrypts (ENCRYPTION_KEY changed,
 * or the row was altered) is a 400 telling the account to store its key again, never the operator's key.
 */
export function decryptProviderKey(encryptedKey: string): string {
  try {
    return decryptSecret(encryptedKey);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new AppError('bad_request', 'Your stored provider key can no longer be read (the server’s ENCRYPTION_KEY changed); store it again with PUT …/provider-keys/{provider}', {
      byok: true,
    });
  }
}

/** The account's own key for `provider` in clear, or null when it stored none. */
export async function providerKeyFor(p: { accountId: string; provider: string }): Promise<string | null> {
  const prisma = await db();
  const row = await prisma.providerKey.findUnique({ where: { accountId_provider: { accountId: p.accountId, provider: p.provider } }, select: { encryptedKey: true } });
  return row ? decryptProviderKey(row.encryptedKey) : null;
}
