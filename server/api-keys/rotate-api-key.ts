// POST /api/v1/api-keys/{key_id}/rotate: a new secret for the same key, shown once; the old secret stops
// working at once (grace_period_seconds 0, the default) or when a grace period ends.
//
// Why the same row and not a new ApiKey row: a key's credit limit, spend window, total spend, rate limits
// (counted by key id), usage history and the reservations in flight all hang off the key's row and id. A new
// row would have to copy the window counters and would then keep a second, independent window during the
// grace period (old and new secrets could together spend twice the limit), split the usage history and
// change the id clients manage the key by. Keeping the row makes "same settings, same limits" true by
// construction: rotation only moves the current hash to previousKeyHash with previousKeyExpiresAt = now +
// grace, and writes the new hash. Authentication (authenticate-bearer.ts) and the chat path's one admission
// statement (RESERVE_SQL in server/ledger/reserve-sql.ts) find the row by either hash through two unique indexes
// in the same statement — still one round trip — and accept the previous hash only while
// previousKeyExpiresAt is in the future, so an ended grace period refuses the old secret on its very next
// request, whichever instance serves it. One previous secret at a time: rotating again ends the earlier
// grace period at once (that secret was already being replaced).
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { generateSecret, hashSecret, secretHint, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { apiKeySelect, toApiKeyDto, type ApiKeyDto } from './create-api-key';
import { findManageableApiKeyOrThrow } from './find-manageable-api-key';

/** At most 30 days: a grace period is for rolling the new secret out, not for keeping two secrets. */
export const MAX_GRACE_PERIOD_SECONDS = 30 * 24 * 60 * 60;

export const rotateApiKeyInput = z.strictObject({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(MAX_GRACE_PERIOD_SECONDS)
    .default(0)
    .describe('How long the old secret keeps working (seconds, at most 30 days); 0 (the default): revoked at once'),
});
export type RotateApiKeyInput = z.input<typeof rotateApiKeyInput>;

export interface RotatedApiKey {
  /** The new secret: in this response and nowhere else, ever. */
  key: string;
  apiKey: ApiKeyDto;
}

export async function rotateApiKey(p: { userId: string; keyId: string; withinAccountId?: string; input?: RotateApiKeyInput; now?: Date }): Promise<RotatedApiKey> {
  const input = rotateApiKeyInput.parse(p.input ?? {});
  const now = p.now ?? new Date();
  const key = await findManageableApiKeyOrThrow({ userId: p.userId, keyId: p.keyId, withinAccountId: p.withinAccountId });
  const secret = generateSecret(TOKEN_PREFIX.apiKey);
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "ApiKey" WHERE id = ${key.id} FOR NO KEY UPDATE`;
    const before = await tx.apiKey.findFirst({ where: { id: key.id, deletedAt: null }, select: { ...apiKeySelect, keyHash: true } });
    if (!before) throw new AppError('not_found', 'API key not found');
    const grace = input.grace_period_seconds > 0;
    const updated = await tx.apiKey.update({
      where: { id: key.id },
      data: {
        keyHash: hashSecret(secret),
        hint: secretHint(secret, TOKEN_PREFIX.apiKey),
        previousKeyHash: grace ? before.keyHash : null,
        previousHint: grace ? before.hint : null,
        previousKeyExpiresAt: grace ? new Date(now.getTime() + input.grace_period_seconds * 1000) : null,
      },
      select: apiKeySelect,
    });
    await recordAudit(tx, {
      accountId: key.accountId,
      action: 'api_key.rotate',
      target: { type: 'api_key', id: key.id },
      before: { hint: before.hint },
      after: { hint: updated.hint, previous_hint: updated.previousHint, previous_key_expires_at: updated.previousKeyExpiresAt?.toISOString() ?? null, grace_period_seconds: input.grace_period_seconds },
    });
    return updated;
  });
  return { key: secret, apiKey: toApiKeyDto(row) };
}
