import { apiRoute, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { queryUsage } from '@/server/usage/query-usage';
import { organizationUsageQuery } from '@/server/usage/usage-query';
import { organizationUsageScope } from '@/server/usage/usage-scope';

export const dynamic = 'force-dynamic';

/** Everyone's usage with usage:read-all (owner, admin, billing); a member's own otherwise. */
export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'usage:read-own');
  const query = parseQuery(request, organizationUsageQuery);
  return queryUsage({ scope: organizationUsageScope(access, principal.userId, query.user_id), query });
});
