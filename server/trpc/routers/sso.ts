// The active organization's single sign-on (owners): same permission and services as
// /api/v1/organizations/{id}/sso and …/sso/verify.
import { isAppError } from '@/server/errors';
import { deleteOrganizationSso } from '@/server/sso/delete-organization-sso';
import { getOrganizationSso } from '@/server/sso/get-organization-sso';
import { setOrganizationSso } from '@/server/sso/set-organization-sso';
import { setOrganizationSsoInput } from '@/server/sso/sso-dto';
import { verifySsoDomains } from '@/server/sso/verify-sso-domains';
import { accountProcedure, originOf, router } from '../init';

const ssoProcedure = accountProcedure('sso:manage', { organizationOnly: true });

export const ssoRouter = router({
  /** null while single sign-on is not set up. */
  get: ssoProcedure.query(async ({ ctx }) => {
    try {
      return await getOrganizationSso({ organizationId: ctx.access.accountId, origin: originOf(ctx) });
    } catch (err) {
      // Access to the organization was checked: not_found here means "not set up yet", which the page shows as a form.
      if (isAppError(err) && err.code === 'not_found') return null;
      throw err;
    }
  }),
  set: ssoProcedure.input(setOrganizationSsoInput).mutation(({ ctx, input }) => setOrganizationSso({ organizationId: ctx.access.accountId, input, origin: originOf(ctx) })),
  verify: ssoProcedure.mutation(({ ctx }) => verifySsoDomains({ organizationId: ctx.access.accountId, origin: originOf(ctx) })),
  delete: ssoProcedure.mutation(({ ctx }) => deleteOrganizationSso({ organizationId: ctx.access.accountId })),
});
