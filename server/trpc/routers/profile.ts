// The signed-in user's own settings (the console's Account settings page): profile, password, sign-in
// methods, two-factor authentication, browser sessions, account deletion. One service call per procedure.
// The caller's own browser session (ctx.principal.browserSessionId) stays signed in when a password change or
// a two-factor change signs out the others.
import { z } from 'zod';
import { listBrowserSessions } from '@/server/auth/browser-sessions/list-browser-sessions';
import { revokeBrowserSession, revokeOtherBrowserSessions } from '@/server/auth/browser-sessions/revoke-browser-sessions';
import { disableTwoFactor, disableTwoFactorInput } from '@/server/auth/two-factor/disable-two-factor';
import { confirmTwoFactorInput, confirmTwoFactorSetup, startTwoFactorSetup } from '@/server/auth/two-factor/two-factor-setup';
import { changePassword, changePasswordInput } from '@/server/users/change-password';
import { deleteUser } from '@/server/users/delete-user';
import { getUserProfile } from '@/server/users/get-user-profile';
import { getSignInMethods, unlinkSignInMethod } from '@/server/users/sign-in-methods';
import { updateUserProfile, updateUserProfileInput } from '@/server/users/update-user-profile';
import { safeString } from '@/server/validation/fields';
import { protectedProcedure, router } from '../init';

export const profileRouter = router({
  get: protectedProcedure.query(({ ctx }) => getUserProfile({ userId: ctx.principal.userId })),
  update: protectedProcedure.input(updateUserProfileInput).mutation(({ ctx, input }) => updateUserProfile({ userId: ctx.principal.userId, input })),
  changePassword: protectedProcedure
    .input(changePasswordInput)
    .mutation(({ ctx, input }) => changePassword({ userId: ctx.principal.userId, input, keepBrowserSessionId: ctx.principal.browserSessionId })),
  signInMethods: protectedProcedure.query(({ ctx }) => getSignInMethods({ userId: ctx.principal.userId })),
  unlinkSignInMethod: protectedProcedure
    .input(z.object({ id: safeString().min(1).max(100) }))
    .mutation(({ ctx, input }) => unlinkSignInMethod({ userId: ctx.principal.userId, identityId: input.id })),
  startTwoFactor: protectedProcedure.mutation(({ ctx }) => startTwoFactorSetup({ userId: ctx.principal.userId })),
  confirmTwoFactor: protectedProcedure
    .input(confirmTwoFactorInput)
    .mutation(({ ctx, input }) => confirmTwoFactorSetup({ userId: ctx.principal.userId, input, keepBrowserSessionId: ctx.principal.browserSessionId })),
  disableTwoFactor: protectedProcedure
    .input(disableTwoFactorInput)
    .mutation(({ ctx, input }) => disableTwoFactor({ userId: ctx.principal.userId, input, keepBrowserSessionId: ctx.principal.browserSessionId })),
  browserSessions: protectedProcedure.query(({ ctx }) => listBrowserSessions({ userId: ctx.principal.userId, currentBrowserSessionId: ctx.principal.browserSessionId })),
  revokeBrowserSession: protectedProcedure.input(z.object({ id: safeString().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    await revokeBrowserSession({ userId: ctx.principal.userId, browserSessionId: input.id });
    return { revoked: true, id: input.id };
  }),
  revokeOtherBrowserSessions: protectedProcedure.mutation(({ ctx }) => revokeOtherBrowserSessions({ userId: ctx.principal.userId, keepBrowserSessionId: ctx.principal.browserSessionId })),
  // Every browser session goes with the user row (cascade): this one is signed out on its next request too.
  deleteAccount: protectedProcedure.mutation(({ ctx }) => deleteUser({ userId: ctx.principal.userId })),
});
