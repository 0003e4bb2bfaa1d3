// The active organization: settings, deletion, members and roles. Authorization mirrors
// /api/v1/organizations/{id}/… permission for permission.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { changeMemberRole, changeMemberRoleInput } from '@/server/organizations/change-member-role';
import { deleteOrganization } from '@/server/organizations/delete-organization';
import { getOrganization } from '@/server/organizations/get-organization';
import { listAvailableRoles, listMembers } from '@/server/organizations/list-members';
import { getMemberLimit, setMemberLimit, setMemberLimitInput } from '@/server/organizations/member-limit';
import type { Permission } from '@/server/organizations/permissions';
import { removeMembers, removeMembersInput } from '@/server/organizations/remove-members';
import { updateOrganization, updateOrganizationInput } from '@/server/organizations/update-organization';
import { accountProcedure, router } from '../init';

const organizationProcedure = (permission: Permission) => accountProcedure(permission, { organizationOnly: true });

export const organizationRouter = router({
  get: organizationProcedure('org:read').query(({ ctx }) => getOrganization({ organizationId: ctx.access.accountId, role: ctx.access.role })),
  update: organizationProcedure('org:update')
    .input(updateOrganizationInput)
    .mutation(({ ctx, input }) => updateOrganization({ organizationId: ctx.access.accountId, role: ctx.access.role, input })),
  /** `force` forfeits remaining credit (the service refuses otherwise, naming the balance). */
  delete: organizationProcedure('org:delete')
    .input(z.object({ force: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => deleteOrganization({ organizationId: ctx.access.accountId, actorUserId: ctx.principal.userId, force: input.force })),
  members: organizationProcedure('members:read').query(({ ctx }) => listMembers({ organizationId: ctx.access.accountId })),
  /** Every role with its permissions and whether the caller may assign it. */
  roles: organizationProcedure('members:read').query(({ ctx }) => listAvailableRoles({ callerRole: ctx.access.role })),
  changeRole: organizationProcedure('members:manage')
    .input(changeMemberRoleInput.extend({ member_id: safeString().min(1).max(100) }))
    .mutation(({ ctx, input }) =>
      changeMemberRole({ organizationId: ctx.access.accountId, actor: { userId: ctx.principal.userId, role: ctx.access.role }, memberId: input.member_id, input: { role: input.role } }),
    ),
  /** Anyone may remove themselves (leave); others need members:manage (checked by the service). */
  removeMembers: organizationProcedure('members:read')
    .input(removeMembersInput)
    .mutation(({ ctx, input }) => removeMembers({ organizationId: ctx.access.accountId, actor: { userId: ctx.principal.userId, role: ctx.access.role }, input })),
  /** A member's spend limit: anyone their own, usage:read-all anyone's (checked by the service). */
  memberLimit: organizationProcedure('members:read')
    .input(z.object({ member_id: safeString().min(1).max(100) }))
    .query(({ ctx, input }) => getMemberLimit({ access: ctx.access, actorUserId: ctx.principal.userId, memberId: input.member_id })),
  setMemberLimit: organizationProcedure('members:manage')
    .input(setMemberLimitInput.extend({ member_id: safeString().min(1).max(100) }))
    .mutation(({ ctx, input }) => setMemberLimit({ access: ctx.access, memberId: input.member_id, input: { amount_usd: input.amount_usd, reset: input.reset } })),
});
