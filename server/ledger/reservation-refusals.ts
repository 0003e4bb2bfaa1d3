// Why a reservation was refused, in words a client can act on: the key (disabled, its owner suspended), the
// organization's policy (403), or money (402: the account, the key's window or the member's window). Only
// the refusals read the database again (rarely, outside the hot path) for the figures the message names.
import { disabledApiKeyError, suspendedUserError } from '@/server/auth/authenticate-bearer';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { formatUsd, microsToUsd } from './money';
import type { LimitReset, ReservationRow } from './reserve';

/** The same 403s as authenticateBearer's, for a suspended user and a disabled key. */
export function refuseDisabledKey(row: Pick<ReservationRow, 'disabled' | 'id' | 'suspended'>): void {
  if (row.suspended) throw suspendedUserError();
  if (row.disabled) throw disabledApiKeyError(row.id ?? '');
}

/** 403 when the paying organization's policy refuses the model, or every provider that could serve it. */
export function refuseByPolicy(row: ReservationRow, model: string): void {
  if (!row.orgModelAllowed) {
    throw new AppError('forbidden', `Your organization does not allow ${model}. Allowed models: ${(row.orgAllowedModels ?? []).join(', ')}. Ask an owner or admin to change settings.allowed_models.`, {
      model,
      reason: 'organization_policy',
      allowed_models: row.orgAllowedModels ?? [],
    });
  }
  if (!row.providerAllowed) {
    throw new AppError('forbidden', `No provider your organization allows serves ${model}. Allowed providers: ${(row.allowedProviders ?? []).join(', ')}. Ask an owner or admin to change settings.allowed_providers, or pick another model.`, {
      model,
      reason: 'organization_policy',
      allowed_providers: row.allowedProviders ?? [],
    });
  }
}

const PER_WINDOW: Record<LimitReset, string> = { NEVER: '', DAILY: ' per day', WEEKLY: ' per week', MONTHLY: ' per month' };

/** The 402 for a refused reservation (rare): reads what the message needs, outside the hot path. */
export async function refuseReservation(
  r: { accountId: string; apiKeyId?: string | null; membershipId?: string | null; amountMicros: bigint },
  verdict: Pick<ReservationRow, 'accountOk' | 'keyOk'> | boolean,
): Promise<never> {
  const { accountOk, keyOk } = typeof verdict === 'boolean' ? { accountOk: verdict, keyOk: false } : verdict;
  const amount = r.amountMicros;
  const prisma = await db();
  if (!accountOk || (!r.apiKeyId && !r.membershipId)) {
    const a = await prisma.account.findUnique({ where: { id: r.accountId }, select: { paidMicros: true, promoMicros: true, reservedMicros: true } });
    if (!a) throw new AppError('not_found', 'Account not found');
    const available = a.paidMicros + a.promoMicros - a.reservedMicros;
    throw new AppError(
      'payment_required',
      `Insufficient credits: this request may cost up to ${formatUsd(amount)} and ${formatUsd(available > 0n ? available : 0n)} is available. Add credits to continue.`,
      { balance: microsToUsd(a.paidMicros + a.promoMicros), available: microsToUsd(available), required: microsToUsd(amount), add_credits_url: '/billing' },
    );
  }
  if (r.apiKeyId && !keyOk) {
    const k = await prisma.apiKey.findUnique({ where: { id: r.apiKeyId }, select: { creditLimitMicros: true, limitReset: true } });
    throw new AppError(
      'payment_required',
      `This API key's credit limit (${formatUsd(k?.creditLimitMicros ?? 0n)}${PER_WINDOW[k?.limitReset ?? 'NEVER']}) would be exceeded by this request. Raise the key's limit or use another key.`,
      { reason: 'key_limit', key_limit: microsToUsd(k?.creditLimitMicros ?? 0n), required: microsToUsd(amount) },
    );
  }
  const m = r.membershipId ? await prisma.membership.findUnique({ where: { id: r.membershipId }, select: { spendLimitMicros: true, limitReset: true, windowSpentMicros: true } }) : null;
  throw new AppError(
    'payment_required',
    `Your spend limit in this organization (${formatUsd(m?.spendLimitMicros ?? 0n)}${PER_WINDOW[m?.limitReset ?? 'NEVER']}) would be exceeded by this request. Ask an owner or admin to raise it.`,
    {
      reason: 'member_limit',
      member_limit: microsToUsd(m?.spendLimitMicros ?? 0n),
      limit_reset: m && m.limitReset !== 'NEVER' ? m.limitReset.toLowerCase() : null,
      used: microsToUsd(m?.windowSpentMicros ?? 0n),
      required: microsToUsd(amount),
    },
  );
}
