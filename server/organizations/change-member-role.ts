// PUT /api/v1/organizations/{id}/members/{memberId}/role. The route has checked members:manage; here:
// only owners grant or revoke the owner role (403), and the last owner cannot be demoted (409).
import { z } from 'zod';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { recordAudit } from '@/server/audit/record-audit';
import { countOwners, lockOrganizations } from './lock-organization';
import { memberSelect, roleSchema, toMemberDto, toRole, type MemberDto } from './member-dto';
import { assignableRoles, type Role } from './permissions';

export const changeMemberRoleInput = z.object({ role: roleSchema });
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleInput>;

export async function changeMemberRole(p: { organizationId: string; actor: { userId: string; role: Role }; memberId: string; input: ChangeMemberRoleInput }): Promise<MemberDto> {
  const role = toRole(changeMemberRoleInput.parse(p.input).role);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    const target = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: p.organizationId, userId: p.memberId } }, select: { id: true, ...memberSelect } });
    if (!target) throw new AppError('not_found', 'Member not found');
    const mayAssign = assignableRoles(p.actor.role);
    if ((target.role === 'OWNER' && !mayAssign.includes('OWNER')) || !mayAssign.includes(role)) {
      throw new AppError('forbidden', 'Only owners can grant or revoke the owner role', { role: p.actor.role.toLowerCase() });
    }
    if (target.role === 'OWNER' && role !== 'OWNER' && (await countOwners(tx, p.organizationId)) <= 1) {
      throw new AppError('conflict', 'This is the last owner; make another member an owner first');
    }
    const updated = await tx.membership.update({ where: { id: target.id }, data: { role }, select: memberSelect });
    if (updated.role !== target.role) {
      await recordAudit(tx, { accountId: p.organizationId, action: 'member.role_change', target: { type: 'member', id: p.memberId }, before: toMemberDto(target), after: toMemberDto(updated) });
    }
    return toMemberDto(updated);
  });
}
