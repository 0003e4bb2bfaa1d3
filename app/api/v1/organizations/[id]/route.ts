import { apiRoute, parseBody, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { deleteOrganization, deleteOrganizationQuery } from '@/server/organizations/delete-organization';
import { getOrganization } from '@/server/organizations/get-organization';
import { updateOrganization, updateOrganizationInput } from '@/server/organizations/update-organization';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = apiRoute<Params>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'org:read');
  return getOrganization({ organizationId: access.accountId, role: access.role });
});

export const PUT = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'org:update');
  const input = await parseBody(request, updateOrganizationInput);
  return updateOrganization({ organizationId: access.accountId, role: access.role, input });
});

export const DELETE = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'org:delete');
  const { force } = parseQuery(request, deleteOrganizationQuery);
  return deleteOrganization({ organizationId: access.accountId, actorUserId: principal.userId, force });
});
