import { z } from 'zod';
import { coercedInstant, isoOrNull, safeString, usdNumber } from '@/server/validation/fields';
import { db } from '@/server/db';
import { generateSecret, hashSecret, secretHint, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { AppError } from '@/server/errors';
import { microsToUsd, usdToMicros } from '@/server/ledger/money';
import type { LimitReset } from '@/server/ledger/reserve';
import { spendInCurrentWindow } from '@/server/ledger/spend-window';
import { recordAudit } from '@/server/audit/record-audit';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';

/** Per-key rate limits: positive integers; null (or absent) = the server's RATE_LIMIT_RPM, no token limit. */
export const rateLimitRpmField = z.number().int().min(1).max(1_000_000).describe('Requests per minute for this key; null = the server default (RATE_LIMIT_RPM)');
export const rateLimitTpmField = z.number().int().min(1).max(1_000_000_000).describe('Tokens (prompt + completion) per minute for this key; null = no token limit');

export const createApiKeyInput = z.object({
  name: safeString().trim().min(1, 'Name is required').max(100),
  /** Personal account (default: the user's) or an organization id the user may manage keys for. */
  account_id: safeString().min(1).optional(),
  credit_limit: usdNumber({ min: 0, exclusiveMin: true, max: 1_000_000, decimals: 6 }).nullable().optional(),
  limit_reset: z.enum(['never', 'daily', 'weekly', 'monthly']).default('never'),
  expires_at: coercedInstant().nullable().optional(),
  allowed_models: z.array(safeString().min(1).max(200)).max(200).default([]),
  rate_limit_rpm: rateLimitRpmField.nullable().optional(),
  rate_limit_tpm: rateLimitTpmField.nullable().optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

/** A past expiry: the 400's issue names the field, so the console's key dialogs show it there. */
export function pastExpiry(): AppError {
  return new AppError('bad_request', 'expires_at must be in the future', { issues: [{ path: 'expires_at', message: 'Must be in the future' }] });
}

export const apiKeySelect = {
  id: true,
  name: true,
  hint: true,
  accountId: true,
  userId: true,
  creditLimitMicros: true,
  limitReset: true,
  windowSpentMicros: true,
  windowStartedAt: true,
  totalSpentMicros: true,
  allowedModels: true,
  expiresAt: true,
  lastUsedAt: true,
  createdAt: true,
  disabledAt: true,
  rateLimitRpm: true,
  rateLimitTpm: true,
  previousHint: true,
  previousKeyExpiresAt: true,
} as const;

type ApiKeyRow = {
  id: string;
  name: string;
  hint: string;
  accountId: string;
  userId: string;
  creditLimitMicros: bigint | null;
  limitReset: LimitReset;
  windowSpentMicros: bigint;
  windowStartedAt: Date;
  totalSpentMicros: bigint;
  allowedModels: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  disabledAt: Date | null;
  rateLimitRpm: number | null;
  rateLimitTpm: number | null;
  previousHint: string | null;
  previousKeyExpiresAt: Date | null;
};

/** The API key record as clients see it: never the secret, never its hash. */
export function toApiKeyDto(k: ApiKeyRow) {
  return {
    id: k.id,
    name: k.name,
    hint: k.hint,
    account_id: k.accountId,
    user_id: k.userId,
    credit_limit: k.creditLimitMicros === null ? null : microsToUsd(k.creditLimitMicros),
    limit_reset: k.limitReset.toLowerCase(),
    // A window that rolled over (a new day, week or month) counts from 0, as admission counts it.
    usage_in_window: microsToUsd(spendInCurrentWindow(k)),
    usage_total: microsToUsd(k.totalSpentMicros),
    allowed_models: k.allowedModels,
    expires_at: isoOrNull(k.expiresAt),
    last_used_at: isoOrNull(k.lastUsedAt),
    created_at: k.createdAt.toISOString(),
    disabled: k.disabledAt !== null,
    disabled_at: isoOrNull(k.disabledAt),
    rate_limit_rpm: k.rateLimitRpm,
    rate_limit_tpm: k.rateLimitTpm,
    // After a rotation with a grace period: the old secret, still accepted until expires_at (rotate-api-key.ts).
    previous_key: k.previousHint && k.previousKeyExpiresAt && k.previousKeyExpiresAt.getTime() > Date.now() ? { hint: k.previousHint, expires_at: k.previousKeyExpiresAt.toISOString() } : null,
  };
}
export type ApiKeyDto = ReturnType<typeof toApiKeyDto>;

/** What the key.created event says of a key (server/webhooks/webhook-events.ts). */
function keyCreatedData(k: ApiKeyRow) {
  const dto = toApiKeyDto(k);
  return { id: dto.id, name: dto.name, hint: dto.hint, user_id: dto.user_id, credit_limit: dto.credit_limit, limit_reset: dto.limit_reset, expires_at: dto.expires_at };
}

/** A key as the audit log keeps it: its settings, not its running spend (which changes with every request). */
export function apiKeyAuditView(k: ApiKeyRow) {
  const { usage_in_window: _window, usage_total: _total, last_used_at: _lastUsed, ...settings } = toApiKeyDto(k);
  return settings;
}

/** Creates a key; the secret is in the result and nowhere else, ever. */
export async function createApiKey(params: { userId: string; input: CreateApiKeyInput }): Promise<{ key: string; apiKey: ApiKeyDto }> {
  const input = createApiKeyInput.parse(params.input);
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: params.userId }, select: { personalAccountId: true } });
  if (!user) throw new AppError('not_found', 'User not found');
  const accountId = input.account_id ?? user.personalAccountId;
  await assertAccountAccess({ userId: params.userId, accountId, permission: 'keys:create' });
  if (input.expires_at && input.expires_at.getTime() <= Date.now()) throw pastExpiry();

  const secret = generateSecret(TOKEN_PREFIX.apiKey);
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        accountId,
        userId: params.userId,
        name: input.name,
        keyHash: hashSecret(secret),
        hint: secretHint(secret, TOKEN_PREFIX.apiKey),
        creditLimitMicros: input.credit_limit == null ? null : usdToMicros(input.credit_limit),
        limitReset: input.limit_reset.toUpperCase() as 'NEVER' | 'DAILY' | 'WEEKLY' | 'MONTHLY',
        expiresAt: input.expires_at ?? null,
        allowedModels: input.allowed_models,
        rateLimitRpm: input.rate_limit_rpm ?? null,
        rateLimitTpm: input.rate_limit_tpm ?? null,
      },
      select: apiKeySelect,
    });
    await recordAccountEvent(tx, { accountId, type: 'key.created', data: { api_key: keyCreatedData(created) } });
    await recordAudit(tx, { accountId, action: 'api_key.create', target: { type: 'api_key', id: created.id }, after: apiKeyAuditView(created) });
    return created;
  });
  return { key: secret, apiKey: toApiKeyDto(row) };
}
