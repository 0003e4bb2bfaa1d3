import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { createApiKey, createApiKeyInput } from '@/server/api-keys/create-api-key';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { listAccountApiKeys } from '@/server/api-keys/list-api-keys';
import { accountProcedure, protectedProcedure, router } from '../init';

export const apiKeysRouter = router({
  /** Keys of the active account: every key for owners and admins, the caller's own for other members. */
  list: accountProcedure('keys:create').query(({ ctx }) => listAccountApiKeys({ userId: ctx.principal.userId, accountId: ctx.access.accountId })),
  /** Bills to the active account unless `account_id` names another one the caller may create keys for. */
  create: protectedProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) => createApiKey({ userId: ctx.principal.userId, input: { ...input, account_id: input.account_id ?? ctx.principal.accountId } })),
  delete: protectedProcedure.input(z.object({ id: safeString().min(1) })).mutation(async ({ ctx, input }) => {
    await deleteApiKey({ userId: ctx.principal.userId, keyId: input.id });
    return { deleted: true };
  }),
});
