// PATCH /api/v1/api-keys/{key_id}: rename, disable or enable, and change the credit limit, its reset period,
// the expiry, the allowed models and the per-key rate limits. Only the fields sent change; null clears a
// limit or the expiry. Authorization is the same as deletion (find-manageable-api-key.ts).
//
// Changes take effect on the key's next request: authentication and admission read the key row on every
// request. The spend of the current window is kept whatever changes (a new credit_limit or limit_reset does
// not forgive what was spent); a window that started before the new period's current day/week/month counts
// from 0, as admission counts it.
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { usdToMicros } from '@/server/ledger/money';
import type { LimitReset } from '@/server/ledger/reserve';
import { coercedInstant, safeString, usdNumber } from '@/server/validation/fields';
import { apiKeySelect, pastExpiry, rateLimitRpmField, rateLimitTpmField, toApiKeyDto, type ApiKeyDto } from './create-api-key';
import { findManageableApiKeyOrThrow } from './find-manageable-api-key';

export const updateApiKeyInput = z
  .strictObject({
    name: safeString().trim().min(1, 'Name must not be empty').max(100).optional(),
    disabled: z.boolean().optional().describe('true: every request with the key is refused (403) until it is enabled again'),
    credit_limit: usdNumber({ min: 0, exclusiveMin: true, max: 1_000_000, decimals: 6 }).nullable().optional().describe('USD per window; null removes the cap'),
    limit_reset: z.enum(['never', 'daily', 'weekly', 'monthly']).optional(),
    expires_at: coercedInstant().nullable().optional().describe('A future time; null: the key never expires'),
    allowed_models: z.array(safeString().min(1).max(200)).max(200).optional().describe('Empty = every model'),
    rate_limit_rpm: rateLimitRpmField.nullable().optional(),
    rate_limit_tpm: rateLimitTpmField.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to update: send at least one of name, disabled, credit_limit, limit_reset, expires_at, allowed_models, rate_limit_rpm, rate_limit_tpm');
export type UpdateApiKeyInput = z.input<typeof updateApiKeyInput>;

export async function updateApiKey(p: { userId: string; keyId: string; withinAccountId?: string; input: UpdateApiKeyInput; now?: Date }): Promise<ApiKeyDto> {
  const input = updateApiKeyInput.parse(p.input);
  const now = p.now ?? new Date();
  if (input.expires_at && input.expires_at.getTime() <= now.getTime()) throw pastExpiry();
  const key = await findManageableApiKeyOrThrow({ userId: p.userId, keyId: p.keyId, withinAccountId: p.withinAccountId });
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // Locked for the read-modify-write (the audit's before); deleted meanwhile: gone.
    await tx.$queryRaw`SELECT id FROM "ApiKey" WHERE id = ${key.id} FOR NO KEY UPDATE`;
    const before = await tx.apiKey.findFirst({ where: { id: key.id, deletedAt: null }, select: apiKeySelect });
    if (!before) throw new AppError('not_found', 'API key not found');
    const data = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      // Disabling an already disabled key keeps the time it was first disabled.
      ...(input.disabled !== undefined ? { disabledAt: input.disabled ? (before.disabledAt ?? now) : null } : {}),
      ...(input.credit_limit !== undefined ? { creditLimitMicros: input.credit_limit === null ? null : usdToMicros(input.credit_limit) } : {}),
      ...(input.limit_reset !== undefined ? { limitReset: input.limit_reset.toUpperCase() as LimitReset } : {}),
      ...(input.expires_at !== undefined ? { expiresAt: input.expires_at } : {}),
      ...(input.allowed_models !== undefined ? { allowedModels: input.allowed_models } : {}),
      ...(input.rate_limit_rpm !== undefined ? { rateLimitRpm: input.rate_limit_rpm } : {}),
      ...(input.rate_limit_tpm !== undefined ? { rateLimitTpm: input.rate_limit_tpm } : {}),
    };
    const after = await tx.apiKey.update({ where: { id: key.id }, data, select: apiKeySelect });
    const dto = toApiKeyDto(after);
    await recordAudit(tx, { accountId: key.accountId, action: 'api_key.update', target: { type: 'api_key', id: key.id }, before: toApiKeyDto(before), after: dto });
    return dto;
  });
}
