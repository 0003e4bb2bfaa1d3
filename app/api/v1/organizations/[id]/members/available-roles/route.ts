import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { listAvailableRoles } from '@/server/organizations/list-members';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:read');
  return { data: listAvailableRoles({ callerRole: access.role }) };
});
