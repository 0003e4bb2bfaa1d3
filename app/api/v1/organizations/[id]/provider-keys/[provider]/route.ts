import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { deleteProviderKey } from '@/server/provider-keys/delete-provider-key';
import { setProviderKeyInput } from '@/server/provider-keys/provider-key-dto';
import { setProviderKey } from '@/server/provider-keys/set-provider-key';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

type Params = { id: string; provider: string };

/** Stores or replaces the organization's own key for one provider (owners and admins); never returned. */
export const PUT = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'provider-keys:manage');
  const input = await parseBody(request, setProviderKeyInput);
  const { routing } = await runtimeRouting();
  const data = await setProviderKey({ accountId: access.accountId, actorUserId: principal.userId, provider: params.provider, input, routing: routing.table() });
  return { data };
});

export const DELETE = apiRoute<Params>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'provider-keys:manage');
  return deleteProviderKey({ accountId: access.accountId, provider: params.provider });
});
