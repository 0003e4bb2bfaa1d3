import { apiRoute, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { queryUsage } from '@/server/usage/query-usage';
import { memberUsageQuery } from '@/server/usage/usage-query';
import { memberUsageScope } from '@/server/usage/usage-scope';

export const dynamic = 'force-dynamic';

/** One member's usage of the organization: usage:read-all, or your own. `memberId` is the member's user id. */
export const GET = apiRoute<{ id: string; memberId: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'usage:read-own');
  const query = parseQuery(request, memberUsageQuery);
  return queryUsage({ scope: await memberUsageScope(access, principal.userId, params.memberId), query });
});
