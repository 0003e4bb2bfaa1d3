import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { listProviderKeys } from '@/server/provider-keys/list-provider-keys';

export const dynamic = 'force-dynamic';

/** The organization's own provider keys, masked (owners and admins). */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'provider-keys:manage');
  return { data: await listProviderKeys({ accountId: access.accountId }) };
});
