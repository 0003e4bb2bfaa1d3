// GET /api/v1/credits: the caller's account's credit in OpenRouter's shape
// (openrouter.ai/docs/api/api-reference/credits/get-credits), computed from the ledger itself:
//   total_credits  every credit added, net: purchases, plan credit, promotions, adjustments, less refunds,
//                  disputes and expired promotions (every entry that is not usage)
//   total_usage    what generations cost (the USAGE entries), as a positive amount
// so total_credits − total_usage is the ledger's balance to the micro-dollar. Generations in flight are
// not usage yet (their holds are in GET …/balance as `reserved`).
import { db } from '@/server/db';
import { assertAccountAccess } from '@/server/organizations/assert-account-access';
import { microsToUsd } from './money';

export interface CreditsDto {
  total_credits: number;
  total_usage: number;
}

export interface CreditTotals {
  creditsMicros: bigint;
  usageMicros: bigint;
}

export async function creditTotals(accountId: string): Promise<CreditTotals> {
  const prisma = await db();
  const sums = await prisma.ledgerEntry.groupBy({ by: ['kind'], where: { accountId }, _sum: { amountMicros: true } });
  let creditsMicros = 0n;
  let usageMicros = 0n;
  for (const s of sums) {
    const amount = s._sum.amountMicros ?? 0n;
    if (s.kind === 'USAGE') usageMicros -= amount;
    else creditsMicros += amount;
  }
  return { creditsMicros, usageMicros };
}

/**
 * The account the caller acts for (an API key's account, or a token's active account). An organization's
 * totals are its finances: they need billing:read (owner, admin, billing), as the balance amounts do.
 */
export async function getCredits(p: { userId: string; accountId: string }): Promise<CreditsDto> {
  await assertAccountAccess({ userId: p.userId, accountId: p.accountId, permission: 'billing:read' });
  const t = await creditTotals(p.accountId);
  return { total_credits: microsToUsd(t.creditsMicros), total_usage: microsToUsd(t.usageMicros) };
}
