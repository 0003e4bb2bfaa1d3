import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { listProviderKeys } from '@/server/provider-keys/list-provider-keys';

export const dynamic = 'force-dynamic';

/** Your personal account's own provider keys, masked. */
export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  return { data: await listProviderKeys({ accountId: user.personalAccountId }) };
});
