// DELETE /api/v1/organizations/{id} (owners only). Refused with 409 while:
//   - a subscription is live (ACTIVE, TRIALING, PAST_DUE): cancel the plan first, so nobody is billed for
//     an organization that no longer exists;
//   - generations are in flight: retry in a moment. In flight means an ACTIVE Reservation row (the lease each
//     generation holds until its settlement commits, ledger/reservation-leases.ts), not reserved credit: a free
//     model (switchboard/echo) reserves $0, and Account.reservedMicros alone would let the organization go
//     while it runs (its usage would then be recorded for an organization that no longer exists). Reserved
//     credit without a reservation is a credit lease of a server process (ledger/credit-leases.ts), which it
//     returns once the account is idle;
//   - credit remains, unless ?force=true: the balance is forfeited, not refunded.
// Then, in one transaction: every API key of the organization is revoked (rows kept for usage history),
// members whose active account it was are switched back to their personal account, and the Organization
// row goes with its memberships, invites and subscriptions (cascade). The billing Account and its
// ledger, payments and usage records stay for accounting; with no organization behind it nobody can
// reach it (assertAccountAccess answers 404).
import { z } from 'zod';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd } from '@/server/ledger/money';
import { recordAudit } from '@/server/audit/record-audit';
import { lockOrganizations } from './lock-organization';

export interface DeletedOrganizationDto {
  deleted: true;
  id: string;
  revoked_api_keys: number;
  removed_members: number;
  forfeited_balance: number;
}

export const deleteOrganizationQuery = z.object({
  force: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: delete even though credit remains (the balance is forfeited)'),
});

const LIVE_SUBSCRIPTION = ['ACTIVE', 'TRIALING', 'PAST_DUE'] as const;

export async function deleteOrganization(p: { organizationId: string; actorUserId: string; force?: boolean }): Promise<DeletedOrganizationDto> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    // The account's row too, as admission locks it (ledger/reserve-sql.ts, FOR NO KEY UPDATE, then the
    // member's row): an admission that committed first has its reservation seen below; one that comes after
    // waits here, then finds the membership gone and is refused. The chat path takes no lock it did not before.
    await tx.$queryRaw`SELECT id FROM "Account" WHERE id = ${p.organizationId} FOR NO KEY UPDATE`;
    const org = await tx.organization.findUnique({
      where: { id: p.organizationId },
      select: { id: true, name: true, account: { select: { paidMicros: true, promoMicros: true, reservedMicros: true } }, _count: { select: { memberships: true } } },
    });
    if (!org) throw new AppError('not_found', 'Organization not found');
    const live = await tx.subscription.findFirst({ where: { organizationId: org.id, status: { in: [...LIVE_SUBSCRIPTION] } }, select: { id: true, planId: true } });
    if (live) throw new AppError('conflict', `"${org.name}" has a live ${live.planId} subscription; cancel the plan before deleting the organization`, { subscription_id: live.id });
    // Through the (accountId, status) index: the account's unsettled reservations only.
    const inFlight = await tx.reservation.count({ where: { accountId: org.id, status: 'ACTIVE' } });
    if (inFlight > 0 || org.account.reservedMicros > 0n) {
      throw new AppError('conflict', 'Generations billed to this organization are in flight; try again in a minute', { in_flight: inFlight });
    }
    const balance = org.account.paidMicros + org.account.promoMicros;
    if (balance > 0n && !p.force) {
      throw new AppError('conflict', `"${org.name}" still has $${microsToUsd(balance).toFixed(2)} of credit. Spend it, or delete with ?force=true to forfeit it.`, {
        balance: microsToUsd(balance),
      });
    }
    const now = new Date();
    const keys = await tx.apiKey.updateMany({ where: { accountId: org.id, deletedAt: null }, data: { deletedAt: now, deletedById: p.actorUserId } });
    const switchBack = await tx.user.findMany({ where: { activeAccountId: org.id }, select: { id: true, personalAccountId: true } });
    for (const u of switchBack) await tx.user.update({ where: { id: u.id }, data: { activeAccountId: u.personalAccountId } });
    await tx.remoteConfig.deleteMany({ where: { scope: 'ORGANIZATION', scopeId: org.id } });
    await tx.organization.delete({ where: { id: org.id } });
    // The entry outlives the organization (the log has no foreign key to it), with the billing account it names.
    await recordAudit(tx, {
      accountId: org.id,
      action: 'organization.delete',
      target: { type: 'organization', id: org.id },
      before: { id: org.id, name: org.name, members: org._count.memberships },
      after: { revoked_api_keys: keys.count, forfeited_balance: balance > 0n ? microsToUsd(balance) : 0 },
    });
    return { deleted: true as const, id: org.id, revoked_api_keys: keys.count, removed_members: org._count.memberships, forfeited_balance: balance > 0n ? microsToUsd(balance) : 0 };
  });
}
