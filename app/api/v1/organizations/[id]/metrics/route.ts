import { apiRoute, parseQuery } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { getUsageMetrics, metricsQuery } from '@/server/usage/get-usage-metrics';
import { organizationUsageScope } from '@/server/usage/usage-scope';

export const dynamic = 'force-dynamic';

/** Organization-wide metrics with usage:read-all; members get the same figures over their own usage. */
export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'usage:read-own');
  const query = parseQuery(request, metricsQuery);
  return getUsageMetrics({ scope: organizationUsageScope(access, principal.userId), query });
});
