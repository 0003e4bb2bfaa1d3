import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { publicOrigin } from '@/server/http/public-origin';
import { deleteOrganizationSso } from '@/server/sso/delete-organization-sso';
import { getOrganizationSso } from '@/server/sso/get-organization-sso';
import { setOrganizationSso } from '@/server/sso/set-organization-sso';
import { setOrganizationSsoInput } from '@/server/sso/sso-dto';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'sso:manage');
  return getOrganizationSso({ organizationId: access.accountId, origin: publicOrigin(request.headers) });
});

export const PUT = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'sso:manage');
  const input = await parseBody(request, setOrganizationSsoInput);
  return setOrganizationSso({ organizationId: access.accountId, input, origin: publicOrigin(request.headers) });
});

export const DELETE = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'sso:manage');
  return deleteOrganizationSso({ organizationId: access.accountId });
});
