// The active account's own provider keys (bring your own key): listed masked, set (never returned) and
// deleted. Same permission and services as /api/v1/{organizations,users}/{id}/provider-keys.
import { z } from 'zod';
import { byokProviderIds } from '@/server/provider-keys/byok-providers';
import { deleteProviderKey } from '@/server/provider-keys/delete-provider-key';
import { listProviderKeys } from '@/server/provider-keys/list-provider-keys';
import { setProviderKeyInput } from '@/server/provider-keys/provider-key-dto';
import { setProviderKey } from '@/server/provider-keys/set-provider-key';
import { runtimeRouting } from '@/server/routing/runtime-routing';
import { safeString } from '@/server/validation/fields';
import { accountProcedure, router } from '../init';

const providerId = safeString().min(1).max(100);

export const providerKeysRouter = router({
  list: accountProcedure('provider-keys:manage').query(({ ctx }) => listProviderKeys({ accountId: ctx.access.accountId })),
  /** Provider ids of this server that accept an account's own key (the form's choices). */
  providers: accountProcedure('provider-keys:manage').query(async () => byokProviderIds((await runtimeRouting()).routing.table())),
  set: accountProcedure('provider-keys:manage')
    .input(setProviderKeyInput.extend({ provider: providerId }))
    .mutation(async ({ ctx, input }) =>
      setProviderKey({
        accountId: ctx.access.accountId,
        actorUserId: ctx.principal.userId,
        provider: input.provider,
        input: { key: input.key },
        routing: (await runtimeRouting()).routing.table(),
      }),
    ),
  delete: accountProcedure('provider-keys:manage')
    .input(z.object({ provider: providerId }))
    .mutation(({ ctx, input }) => deleteProviderKey({ accountId: ctx.access.accountId, provider: input.provider })),
});
