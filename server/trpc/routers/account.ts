// The console shell: who is signed in, which account is active and what the caller's role there allows,
// switching accounts and creating organizations.
import { getConsoleSession } from '@/server/console/get-console-session';
import { createOrganization, createOrganizationInput } from '@/server/organizations/create-organization';
import { getUserProfile } from '@/server/users/get-user-profile';
import { setActiveAccount, setActiveAccountInput } from '@/server/users/set-active-account';
import { updateUserProfile, updateUserProfileInput } from '@/server/users/update-user-profile';
import { protectedProcedure, router } from '../init';

export const accountRouter = router({
  /** The signed-in user, their accounts, the active one and its permissions (role-aware UI). */
  session: protectedProcedure.query(({ ctx }) => getConsoleSession({ userId: ctx.principal.userId })),
  setActive: protectedProcedure.input(setActiveAccountInput).mutation(({ ctx, input }) => setActiveAccount({ userId: ctx.principal.userId, input })),
  createOrganization: protectedProcedure
    .input(createOrganizationInput)
    .mutation(({ ctx, input }) => createOrganization({ userId: ctx.principal.userId, input })),
  /** The signed-in user's profile and personal-account settings (GET /api/v1/users/me). */
  profile: protectedProcedure.query(({ ctx }) => getUserProfile({ userId: ctx.principal.userId })),
  updateProfile: protectedProcedure.input(updateUserProfileInput).mutation(({ ctx, input }) => updateUserProfile({ userId: ctx.principal.userId, input })),
});
