import { listAccountApiKeys } from '@/server/api-keys/list-api-keys';
import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

/** Owners and admins see every key of the organization; other members their own. */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'keys:create');
  return { data: await listAccountApiKeys({ userId: principal.userId, accountId: access.accountId }) };
});
