import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { publicOrigin } from '@/server/http/public-origin';
import { verifySsoDomains } from '@/server/sso/verify-sso-domains';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'sso:manage');
  return verifySsoDomains({ organizationId: access.accountId, origin: publicOrigin(request.headers) });
});
