import { listModels } from '@/server/catalog/list-models';
import { listModelsForAccount } from '@/server/catalog/list-models-for-account';
import { toModelDto } from '@/server/catalog/models-dto';
import { accountProcedure, publicProcedure, router } from '../init';

export const modelsRouter = router({
  list: publicProcedure.query(async () => (await listModels()).map(toModelDto)),
  /** The list as the active account sees it: which models work here, and whether the balance covers a first request. */
  forAccount: accountProcedure('usage:read-own').query(({ ctx }) => listModelsForAccount({ accountId: ctx.access.accountId })),
});
