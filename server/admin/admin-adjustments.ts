// An operator's manual credit or debit of an account (POST /api/v1/admin/accounts/{id}/adjustments): one
// ADJUSTMENT ledger entry of paid credit through postLedgerEntry (the only balance writer) and one audit entry,
// in one transaction. Refunds of card payments go through the billing refund path (Stripe); this covers
// manual credit refunds and corrections. A debit may not take paid credit below zero, nor take what requests in
// flight have reserved out from under them (available credit below the account's floor) (409): promotional
// credit is never touched, and an operator who needs to go further debits what is there. The account of a deleted
// organization takes no adjustment (409 organization_deleted).
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { parseWith } from '@/server/http/api-route';
import { microsToUsd, usdToMicros } from '@/server/ledger/money';
import { postLedgerEntry } from '@/server/ledger/post-ledger-entry';
import { newRowId } from '@/server/ledger/reserve';
import { toBalanceDto } from '@/server/ledger/balance';
import { safeString, usdNumber } from '@/server/validation/fields';

export const adjustmentBodySchema = z
  .object({
    amount_usd: usdNumber({ min: -1_000_000, max: 1_000_000, decimals: 6 })
      .refine((v) => v !== 0, 'must not be zero')
      .describe('USD, at most 6 decimals; positive credits, negative debits paid credit'),
    reason: safeString().trim().min(1).max(500).describe('Why (kept in the ledger entry note and the audit log)'),
  })
  .strict();

export async function adjustAccount(p: { accountId: string; actorUserId: string; body: unknown }) {
  const body = parseWith(adjustmentBodySchema, p.body);
  const amountMicros = usdToMicros(body.amount_usd);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    // Lock first (as postLedgerEntry does) so that the check below and the posting see the same balance.
    // deleteOrganization takes the same lock before it deletes the Organization row, so the row read here stays
    // as it is until this transaction ends.
    const [account] = await tx.$queryRaw<{ paidMicros: bigint; promoMicros: bigint; reservedMicros: bigint; creditFloorMicros: bigint; organizationGone: boolean }[]>`
      SELECT "paidMicros", "promoMicros", "reservedMicros", "creditFloorMicros",
             (kind = 'ORGANIZATION' AND NOT EXISTS (SELECT 1 FROM "Organization" o WHERE o.id = "Account".id)) AS "organizationGone"
      FROM "Account" WHERE id = ${p.accountId} FOR NO KEY UPDATE`;
    if (!account) throw new AppError('not_found', `No account ${p.accountId}`);
    // A deleted organization's account stays for accounting (delete-organization.ts: no Organization row behind
    // it, nobody can reach it); credit posted to it would be unusable, a debit would rewrite a closed account.
    if (account.organizationGone) {
      throw new AppError('conflict', `Account ${p.accountId} belonged to an organization that was deleted: its ledger is kept for accounting and takes no adjustments`, {
        reason: 'organization_deleted',
        account_id: p.accountId,
      });
    }
    if (amountMicros < 0n) {
      // What requests in flight hold (reservedMicros) stays covered: the debit may not take available credit
      // below the account's floor, as usage never does, nor paid credit below zero.
      const debit = -amountMicros;
      const headroom = account.paidMicros + account.promoMicros - account.reservedMicros + account.creditFloorMicros;
      const debitable = [account.paidMicros, headroom].reduce((a, b) => (a < b ? a : b));
      const debitableNow = debitable > 0n ? debitable : 0n;
      if (debit > account.paidMicros) {
        throw new AppError('conflict', `A debit of ${microsToUsd(debit)} USD would take the account's paid credit (${microsToUsd(account.paidMicros)} USD) below zero`, {
          reason: 'insufficient_paid_credit',
          paid: microsToUsd(account.paidMicros),
          reserved: microsToUsd(account.reservedMicros),
          debitable: microsToUsd(debitableNow),
        });
      }
      if (debit > headroom) {
        throw new AppError('conflict', `A debit of ${microsToUsd(debit)} USD would leave requests in flight uncovered: they hold ${microsToUsd(account.reservedMicros)} USD of the account's credit, and at most ${microsToUsd(debitableNow)} USD can be debited now`, {
          reason: 'insufficient_paid_credit',
          paid: microsToUsd(account.paidMicros),
          reserved: microsToUsd(account.reservedMicros),
          debitable: microsToUsd(debitableNow),
        });
      }
    }
    const adjustmentId = newRowId();
    const entry = await postLedgerEntry(tx, {
      accountId: p.accountId,
      kind: 'ADJUSTMENT',
      paidMicros: amountMicros,
      idempotencyKey: `adjustment:${adjustmentId}`,
      note: body.reason,
      actorUserId: p.actorUserId,
    });
    const after = await tx.account.findUniqueOrThrow({ where: { id: p.accountId }, select: { paidMicros: true, promoMicros: true, reservedMicros: true } });
    const total = after.paidMicros + after.promoMicros;
    const balance = toBalanceDto({ accountId: p.accountId, ...after, totalMicros: total, availableMicros: total - after.reservedMicros });
    const entryDto = { id: entry.id, kind: 'adjustment', amount: microsToUsd(amountMicros), amount_micros: amountMicros.toString(), reason: body.reason, balance_after: microsToUsd(entry.balanceAfterMicros) };
    await recordAudit(tx, {
      accountId: p.accountId,
      action: 'account.adjustment',
      target: { type: 'ledger_entry', id: entry.id },
      after: entryDto,
    });
    return { data: { entry: entryDto, balance } };
  });
}
