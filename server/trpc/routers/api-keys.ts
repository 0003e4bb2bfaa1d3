import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { createApiKey, createApiKeyInput } from '@/server/api-keys/create-api-key';
import { deleteApiKey } from '@/server/api-keys/delete-api-key';
import { listAccountApiKeys } from '@/server/api-keys/list-api-keys';
import { rotateApiKey, rotateApiKeyInput } from '@/server/api-keys/rotate-api-key';
import { updateApiKey, updateApiKeyInput } from '@/server/api-keys/update-api-key';
import { accountProcedure, protectedProcedure, router } from '../init';

export const apiKeysRouter = router({
  /** Keys of the active account: every key for owners and admins, the caller's own for other members. */
  list: accountProcedure('keys:create').query(({ ctx }) => listAccountApiKeys({ userId: ctx.principal.userId, accountId: ctx.access.accountId })),
  /** Bills to the active account unless `account_id` names another one the caller may create keys for. */
  create: protectedProcedure
    .input(createApiKeyInput)
    .mutation(({ ctx, input }) => createApiKey({ userId: ctx.principal.userId, input: { ...input, account_id: input.account_id ?? ctx.principal.accountId } })),
  /** Name, disabled, limits, expiry, models, rate limits (PATCH /api-keys/{id}). */
  update: protectedProcedure
    .input(z.object({ id: safeString().min(1), patch: updateApiKeyInput }))
    .mutation(({ ctx, input }) => updateApiKey({ userId: ctx.principal.userId, keyId: input.id, input: input.patch })),
  /** A new secret (in this response only); the old one revoked at once or after the grace period. */
  rotate: protectedProcedure
    .input(rotateApiKeyInput.extend({ id: safeString().min(1) }))
    .mutation(({ ctx, input }) => rotateApiKey({ userId: ctx.principal.userId, keyId: input.id, input: { grace_period_seconds: input.grace_period_seconds } })),
  delete: protectedProcedure.input(z.object({ id: safeString().min(1) })).mutation(async ({ ctx, input }) => {
    await deleteApiKey({ userId: ctx.principal.userId, keyId: input.id });
    return { deleted: true };
  }),
});
