import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { listMembers } from '@/server/organizations/list-members';
import { removeMembers, removeMembersInput } from '@/server/organizations/remove-members';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = apiRoute<Params>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:read');
  return { data: await listMembers({ organizationId: access.accountId }) };
});

/** Any member may remove themselves (leave); removing others needs members:manage (checked by the service). */
export const DELETE = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:read');
  const input = await parseBody(request, removeMembersInput);
  return removeMembers({ organizationId: access.accountId, actor: { userId: principal.userId, role: access.role }, input });
});
