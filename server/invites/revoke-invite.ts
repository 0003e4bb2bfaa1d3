import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { inviteSelect, toInviteDto, type InviteDto } from './invite-dto';

/** DELETE …/invites/{inviteId}: the link stops working. Unknown (or another organization's) → 404. */
export async function revokeInvite(p: { organizationId: string; inviteId: string }): Promise<InviteDto> {
  const prisma = await db();
  const invite = await prisma.invite.findFirst({ where: { id: p.inviteId, organizationId: p.organizationId }, select: { id: true, status: true } });
  if (!invite || invite.status === 'REVOKED') throw new AppError('not_found', 'Invite not found');
  if (invite.status === 'ACCEPTED') throw new AppError('conflict', 'This invite was already accepted; remove the member instead');
  return prisma.$transaction(async (tx) => {
    const before = await tx.invite.findUniqueOrThrow({ where: { id: invite.id }, select: inviteSelect });
    const row = await tx.invite.update({ where: { id: invite.id }, data: { status: 'REVOKED', revokedAt: new Date() }, select: inviteSelect });
    const after = toInviteDto(row);
    await recordAudit(tx, { accountId: p.organizationId, action: 'invite.revoke', target: { type: 'invite', id: invite.id }, before: toInviteDto(before), after });
    return after;
  });
}
