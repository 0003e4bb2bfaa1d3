import { db } from '@/server/db';
import { inviteSelect, toInviteDto, type InviteDto } from './invite-dto';

const pendingWhere = (organizationId: string, now: Date) => ({ organizationId, status: 'PENDING' as const, expiresAt: { gt: now } });

/** Pending (not accepted, revoked or expired) invites, newest first. */
export async function listPendingInvites(p: { organizationId: string }): Promise<InviteDto[]> {
  const prisma = await db();
  const now = new Date();
  const rows = await prisma.invite.findMany({ where: pendingWhere(p.organizationId, now), select: inviteSelect, orderBy: { createdAt: 'desc' } });
  return rows.map((r) => toInviteDto(r, now));
}

export async function countPendingInvites(p: { organizationId: string }): Promise<{ pending: number }> {
  const prisma = await db();
  return { pending: await prisma.invite.count({ where: pendingWhere(p.organizationId, new Date()) }) };
}
