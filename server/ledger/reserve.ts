// Reserve, then settle. Before a provider is called, the worst-case cost is held against the account (and
// the key's spend cap) in one transaction; each check-and-increment is a single conditional UPDATE, so
// concurrent requests cannot both pass a check that only one of them fits (PostgreSQL re-evaluates the
// WHERE clause on the locked, latest row; PGlite runs transactions one at a time).
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { formatUsd, microsToUsd } from './money';

export type LimitReset = 'NEVER' | 'DAILY' | 'WEEKLY' | 'MONTHLY';

/** Start of the key's current spend window (UTC). NEVER: the epoch, so the window never rolls over. */
export function currentWindowStart(reset: LimitReset, now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (reset) {
    case 'DAILY':
      return d;
    case 'WEEKLY': {
      const dow = (d.getUTCDay() + 6) % 7; // Monday = 0
      return new Date(d.getTime() - dow * 86_400_000);
    }
    case 'MONTHLY':
      return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    default:
      return new Date(0);
  }
}

export interface ReserveInput {
  accountId: string;
  generationId: string;
  amountMicros: bigint;
  apiKey?: { id: string; limitReset: LimitReset };
  userId?: string;
  authTokenId?: string;
  model?: string;
  provider?: string;
  /** How long before the sweeper may settle it if this process dies (default 15 min). */
  ttlMs?: number;
  now?: Date;
}

export async function reserveCredits(input: ReserveInput): Promise<{ reservationId: string }> {
  const prisma = await db();
  const now = input.now ?? new Date();
  const amount = input.amountMicros;
  const ttl = input.ttlMs ?? 15 * 60_000;
  return prisma.$transaction(async (tx) => {
    const acct = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Account" SET "reservedMicros" = "reservedMicros" + ${amount}
      WHERE id = ${input.accountId}
        AND "paidMicros" + "promoMicros" - "reservedMicros" - ${amount} >= -"creditFloorMicros"
      RETURNING id`;
    if (acct.length === 0) {
      const a = await tx.account.findUnique({ where: { id: input.accountId }, select: { paidMicros: true, promoMicros: true, reservedMicros: true } });
      if (!a) throw new AppError('not_found', 'Account not found');
      const available = a.paidMicros + a.promoMicros - a.reservedMicros;
      throw new AppError(
        'payment_required',
        `Insufficient credits: this request may cost up to ${formatUsd(amount)} and ${formatUsd(available > 0n ? available : 0n)} is available. Add credits to continue.`,
        { balance: microsToUsd(a.paidMicros + a.promoMicros), available: microsToUsd(available), required: microsToUsd(amount), add_credits_url: '/billing' },
      );
    }
    if (input.apiKey) {
      const windowStart = currentWindowStart(input.apiKey.limitReset, now);
      const key = await tx.$queryRaw<{ id: string }[]>`
        UPDATE "ApiKey" SET
          "windowSpentMicros" = CASE WHEN "windowStartedAt" < ${windowStart} THEN ${amount} ELSE "windowSpentMicros" + ${amount} END,
          "windowStartedAt" = CASE WHEN "windowStartedAt" < ${windowStart} THEN ${windowStart} ELSE "windowStartedAt" END,
          "lastUsedAt" = ${now}
        WHERE id = ${input.apiKey.id}
          AND ("creditLimitMicros" IS NULL
               OR (CASE WHEN "windowStartedAt" < ${windowStart} THEN 0 ELSE "windowSpentMicros" END) + ${amount} <= "creditLimitMicros")
        RETURNING id`;
      if (key.length === 0) {
        const k = await tx.apiKey.findUnique({ where: { id: input.apiKey.id }, select: { creditLimitMicros: true, limitReset: true } });
        throw new AppError(
          'payment_required',
          `This API key's credit limit (${formatUsd(k?.creditLimitMicros ?? 0n)}${k && k.limitReset !== 'NEVER' ? ` per ${k.limitReset.toLowerCase().replace('ly', '').replace('dai', 'day')}` : ''}) would be exceeded by this request. Raise the key's limit or use another key.`,
          { reason: 'key_limit', key_limit: microsToUsd(k?.creditLimitMicros ?? 0n), required: microsToUsd(amount) },
        );
      }
    }
    const r = await tx.reservation.create({
      data: {
        accountId: input.accountId,
        apiKeyId: input.apiKey?.id,
        userId: input.userId,
        authTokenId: input.authTokenId,
        model: input.model ?? '',
        provider: input.provider ?? '',
        generationId: input.generationId,
        amountMicros: amount,
        expiresAt: new Date(now.getTime() + ttl),
      },
      select: { id: true },
    });
    return { reservationId: r.id };
  });
}
