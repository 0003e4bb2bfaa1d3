import { apiRoute, parseQuery } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { queryUsage } from '@/server/usage/query-usage';
import { userUsageQuery } from '@/server/usage/usage-query';
import { userUsageScope } from '@/server/usage/usage-scope';

export const dynamic = 'force-dynamic';

/** The caller's own generations, on their personal account and any organization they used. */
export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  const query = parseQuery(request, userUsageQuery);
  return queryUsage({ scope: userUsageScope(user.userId, query.account_id), query });
});
