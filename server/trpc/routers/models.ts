import { z } from 'zod';
import { listModels } from '@/server/catalog/list-models';
import { listModelsForAccount } from '@/server/catalog/list-models-for-account';
import { toModelDto } from '@/server/catalog/models-dto';
import { listRoutingProviders, modelProviders } from '@/server/routing/model-providers';
import { runtimeRouting } from '@/server/routing/runtime-routing';
import { safeString } from '@/server/validation/fields';
import { accountProcedure, publicProcedure, router } from '../init';

export const modelsRouter = router({
  list: publicProcedure.query(async () => (await listModels()).map(toModelDto)),
  /** One model's providers with their status and measured latency (public, like GET /api/v1/models/{id}/endpoints). */
  providers: publicProcedure.input(z.object({ id: safeString().min(1).max(200) })).query(async ({ input }) => {
    const { routing, health, stats } = await runtimeRouting();
    return modelProviders({ table: routing.table(), health, stats, id: input.id });
  }),
  /** Every provider of the routing table by id and name. */
  routingProviders: publicProcedure.query(async () => listRoutingProviders((await runtimeRouting()).routing.table())),
  /** The list as the active account sees it: which models work here, and whether the balance covers a first request. */
  forAccount: accountProcedure('usage:read-own').query(({ ctx }) => listModelsForAccount({ accountId: ctx.access.accountId })),
});
