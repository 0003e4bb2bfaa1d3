// GET /api/v1/key: what the calling API key can learn about itself, in OpenRouter's shape
// (openrouter.ai/docs/api/api-reference/api-keys/get-current-key), so tools written for OpenRouter read it:
//   label            the key's display hint (sk-sb-v1-AbC…x9Z), as OpenRouter's label is its truncated key
//   usage            USD the key has spent, all time (settled generations)
//   limit            the key's credit limit in USD, null without one
//   limit_remaining  limit − spend in the current window (spend includes requests in flight), null without a limit
//   limit_reset      daily | weekly | monthly, null when the limit never resets
//   is_free_tier     the key's account never bought credit (no purchase, no paid plan)
//   rate_limit       the key's requests per minute, or the server's RATE_LIMIT_RPM
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';
import { limitResetName, remainingInWindow } from '@/server/ledger/spend-window';
import { isoOrNull } from '@/server/validation/fields';

export interface CurrentKeyDto {
  label: string;
  usage: number;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: 'daily' | 'weekly' | 'monthly' | null;
  expires_at: string | null;
  is_free_tier: boolean;
  rate_limit: { requests: number; interval: '1m' };
}

/** Whether an account never bought credit: no purchase and no paid plan's credit in its ledger. */
export async function isFreeTierAccount(accountId: string): Promise<boolean> {
  const prisma = await db();
  const bought = await prisma.ledgerEntry.findFirst({ where: { accountId, kind: { in: ['PURCHASE', 'PLAN_CREDIT'] } }, select: { id: true } });
  return bought === null;
}

/** `apiKeyId`: the key that authenticated the request (authentication refused deleted, expired and disabled keys). */
export async function getCurrentKey(p: { apiKeyId: string | undefined; now?: Date }): Promise<CurrentKeyDto> {
  if (!p.apiKeyId) {
    throw new AppError('bad_request', 'GET /api/v1/key describes the API key that calls it, and this request was made with an account token, not an API key. List your keys with GET /api/v1/api-keys.', {
      reason: 'not_an_api_key',
    });
  }
  const now = p.now ?? new Date();
  const prisma = await db();
  const key = await prisma.apiKey.findUnique({
    where: { id: p.apiKeyId },
    select: { hint: true, accountId: true, totalSpentMicros: true, creditLimitMicros: true, limitReset: true, windowSpentMicros: true, windowStartedAt: true, expiresAt: true, rateLimitRpm: true },
  });
  if (!key) throw new AppError('unauthorized', 'Invalid API key');
  const remaining = remainingInWindow(key.creditLimitMicros, key, now);
  return {
    label: key.hint,
    usage: microsToUsd(key.totalSpentMicros),
    limit: key.creditLimitMicros === null ? null : microsToUsd(key.creditLimitMicros),
    limit_remaining: remaining === null ? null : microsToUsd(remaining),
    limit_reset: limitResetName(key.limitReset),
    expires_at: isoOrNull(key.expiresAt),
    is_free_tier: await isFreeTierAccount(key.accountId),
    rate_limit: { requests: key.rateLimitRpm ?? env().RATE_LIMIT_RPM, interval: '1m' },
  };
}
