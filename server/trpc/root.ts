// The console's API. Each router mirrors a REST area and calls the same services; procedures act on the
// caller's active account (server/trpc/init.ts, accountProcedure).
import { createCallerFactory, router } from './init';
import { accountRouter } from './routers/account';
import { adminRouter } from './routers/admin';
import { apiKeysRouter } from './routers/api-keys';
import { auditLogRouter } from './routers/audit-log';
import { billingRouter } from './routers/billing';
import { invitesRouter } from './routers/invites';
import { modelsRouter } from './routers/models';
import { organizationRouter } from './routers/organization';
import { plansRouter } from './routers/plans';
import { profileRouter } from './routers/profile';
import { promotionsRouter } from './routers/promotions';
import { providerKeysRouter } from './routers/provider-keys';
import { sessionsRouter } from './routers/sessions';
import { ssoRouter } from './routers/sso';
import { usageRouter } from './routers/usage';
import { webhooksRouter } from './routers/webhooks';

export const appRouter = router({
  account: accountRouter,
  admin: adminRouter,
  apiKeys: apiKeysRouter,
  auditLog: auditLogRouter,
  billing: billingRouter,
  invites: invitesRouter,
  models: modelsRouter,
  organization: organizationRouter,
  plans: plansRouter,
  profile: profileRouter,
  promotions: promotionsRouter,
  providerKeys: providerKeysRouter,
  sessions: sessionsRouter,
  sso: ssoRouter,
  usage: usageRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
