// The console's API. Each router mirrors a REST area and calls the same services; procedures act on the
// caller's active account (server/trpc/init.ts, accountProcedure).
import { createCallerFactory, router } from './init';
import { accountRouter } from './routers/account';
import { apiKeysRouter } from './routers/api-keys';
import { billingRouter } from './routers/billing';
import { invitesRouter } from './routers/invites';
import { modelsRouter } from './routers/models';
import { organizationRouter } from './routers/organization';
import { plansRouter } from './routers/plans';
import { profileRouter } from './routers/profile';
import { promotionsRouter } from './routers/promotions';
import { sessionsRouter } from './routers/sessions';
import { usageRouter } from './routers/usage';

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  billing: billingRouter,
  invites: invitesRouter,
  models: modelsRouter,
  organization: organizationRouter,
  plans: plansRouter,
  profile: profileRouter,
  promotions: promotionsRouter,
  sessions: sessionsRouter,
  usage: usageRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
