// DELETE /api/v1/organizations/{id}/members {member_ids}. Anyone may remove themselves (leave); removing
// others needs members:manage, and removing an owner needs members:manage-owners. The organization
// keeps at least one owner (409). All or nothing, in one transaction: each removed member's API keys on
// this organization are revoked, and if the organization was their active account they are switched
// back to their personal account.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { recordAudit } from '@/server/audit/record-audit';
import { lockOrganizations } from './lock-organization';
import { toMemberDto } from './member-dto';
import { roleAllows, type Role } from './permissions';

export const removeMembersInput = z.object({
  member_ids: z.array(safeString().min(1).max(100)).min(1, 'member_ids must name at least one member').max(100).describe("Members' user ids"),
});
export type RemoveMembersInput = z.input<typeof removeMembersInput>;

export interface RemoveMembersResult {
  removed: { user_id: string; email: string; revoked_api_keys: number }[];
  revoked_api_keys: number;
}

export async function removeMembers(p: { organizationId: string; actor: { userId: string; role: Role }; input: RemoveMembersInput }): Promise<RemoveMembersResult> {
  const ids = [...new Set(removeMembersInput.parse(p.input).member_ids)];
  const onlySelf = ids.length === 1 && ids[0] === p.actor.userId;
  if (!onlySelf && !roleAllows(p.actor.role, 'members:manage')) {
    throw new AppError('forbidden', `Your role (${p.actor.role.toLowerCase()}) may only remove yourself`, { required_permission: 'members:manage' });
  }
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    const members = await tx.membership.findMany({
      where: { organizationId: p.organizationId, userId: { in: ids } },
      select: { id: true, role: true, createdAt: true, user: { select: { id: true, email: true, name: true, image: true, activeAccountId: true, personalAccountId: true } } },
    });
    const missing = ids.filter((id) => !members.some((m) => m.user.id === id));
    if (missing.length) throw new AppError('not_found', `Not a member of this organization: ${missing.join(', ')}`, { member_ids: missing });
    const owners = members.filter((m) => m.role === 'OWNER');
    if (owners.some((m) => m.user.id !== p.actor.userId) && !roleAllows(p.actor.role, 'members:manage-owners')) {
      throw new AppError('forbidden', 'Only owners can remove owners', { required_permission: 'members:manage-owners' });
    }
    const ownersLeft = (await tx.membership.count({ where: { organizationId: p.organizationId, role: 'OWNER' } })) - owners.length;
    if (owners.length > 0 && ownersLeft < 1) {
      throw new AppError('conflict', 'An organization needs at least one owner: make another member an owner first, or delete the organization');
    }
    const now = new Date();
    const removed: RemoveMembersResult['removed'] = [];
    for (const m of members) {
      const live = await tx.apiKey.findMany({ where: { accountId: p.organizationId, userId: m.user.id, deletedAt: null }, select: { id: true, name: true, hint: true } });
      const keys = await tx.apiKey.updateMany({ where: { id: { in: live.map((k) => k.id) }, deletedAt: null }, data: { deletedAt: now, deletedById: p.actor.userId } });
      if (m.user.activeAccountId === p.organizationId) await tx.user.update({ where: { id: m.user.id }, data: { activeAccountId: m.user.personalAccountId } });
      await tx.membership.delete({ where: { id: m.id } });
      await recordAudit(tx, {
        accountId: p.organizationId,
        action: m.user.id === p.actor.userId ? 'member.leave' : 'member.remove',
        target: { type: 'member', id: m.user.id },
        before: toMemberDto(m),
        after: { revoked_api_keys: keys.count },
      });
      removed.push({ user_id: m.user.id, email: m.user.email, revoked_api_keys: keys.count });
      for (const k of live) {
        await recordAccountEvent(tx, { accountId: p.organizationId, type: 'key.deleted', data: { api_key: { ...k, user_id: m.user.id }, deleted_by: p.actor.userId, reason: 'member_removed' } });
      }
      await recordAccountEvent(tx, {
        accountId: p.organizationId,
        type: 'member.removed',
        data: { member: { user_id: m.user.id, email: m.user.email, role: m.role.toLowerCase() }, removed_by: p.actor.userId, revoked_api_keys: keys.count },
      });
    }
    return { removed, revoked_api_keys: removed.reduce((n, r) => n + r.revoked_api_keys, 0) };
  });
}
