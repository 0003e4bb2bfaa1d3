import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { lockOrganizations } from '@/server/organizations/lock-organization';
import { inviteSelect, toInviteDto, type InviteDto } from './invite-dto';

/**
 * DELETE …/invites/{inviteId}: the link stops working. Unknown (or another organization's) → 404. Decided under the
 * organization's row lock, as acceptance is (accept-invite.ts), so a revoke racing an acceptance either comes first
 * (the acceptance is a 404) or sees it accepted (409): never both answered as done.
 */
export async function revokeInvite(p: { organizationId: string; inviteId: string }): Promise<InviteDto> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    const invite = await tx.invite.findFirst({ where: { id: p.inviteId, organizationId: p.organizationId }, select: { id: true, status: true } });
    if (!invite || invite.status === 'REVOKED') throw new AppError('not_found', 'Invite not found');
    if (invite.status === 'ACCEPTED') throw new AppError('conflict', 'This invite was already accepted; remove the member instead');
    const before = await tx.invite.findUniqueOrThrow({ where: { id: invite.id }, select: inviteSelect });
    const row = await tx.invite.update({ where: { id: invite.id }, data: { status: 'REVOKED', revokedAt: new Date() }, select: inviteSelect });
    const after = toInviteDto(row);
    await recordAudit(tx, { accountId: p.organizationId, action: 'invite.revoke', target: { type: 'invite', id: invite.id }, before: toInviteDto(before), after });
    return after;
  });
}
