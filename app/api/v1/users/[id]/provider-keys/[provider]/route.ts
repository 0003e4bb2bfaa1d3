import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { deleteProviderKey } from '@/server/provider-keys/delete-provider-key';
import { setProviderKeyInput } from '@/server/provider-keys/provider-key-dto';
import { setProviderKey } from '@/server/provider-keys/set-provider-key';
import { runtimeRouting } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

type Params = { id: string; provider: string };

/** Stores or replaces your personal account's own key for one provider; never returned. */
export const PUT = apiRoute<Params>(async ({ request, principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  const input = await parseBody(request, setProviderKeyInput);
  const { routing } = await runtimeRouting();
  const data = await setProviderKey({ accountId: user.personalAccountId, actorUserId: user.userId, provider: params.provider, input, routing: routing.table() });
  return { data };
});

export const DELETE = apiRoute<Params>(async ({ principal, params }) => {
  const user = await authorizeUser(principal, params.id);
  return deleteProviderKey({ accountId: user.personalAccountId, provider: params.provider });
});
