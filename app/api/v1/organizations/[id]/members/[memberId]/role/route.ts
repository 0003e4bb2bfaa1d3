import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { changeMemberRole, changeMemberRoleInput } from '@/server/organizations/change-member-role';

export const dynamic = 'force-dynamic';

export const PUT = apiRoute<{ id: string; memberId: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:manage');
  const input = await parseBody(request, changeMemberRoleInput);
  return changeMemberRole({ organizationId: access.accountId, actor: { userId: principal.userId, role: access.role }, memberId: params.memberId, input });
});
