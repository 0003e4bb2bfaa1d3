// The account auth tokens of the signed-in user's editors and CLIs (device and redirect flows).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { listAuthTokens, revokeAuthToken } from '@/server/auth/auth-tokens';
import { protectedProcedure, router } from '../init';

export const sessionsRouter = router({
  list: protectedProcedure.query(({ ctx }) => listAuthTokens({ userId: ctx.principal.userId })),
  revoke: protectedProcedure.input(z.object({ id: safeString().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    await revokeAuthToken({ userId: ctx.principal.userId, tokenId: input.id });
    return { revoked: true, id: input.id };
  }),
});
