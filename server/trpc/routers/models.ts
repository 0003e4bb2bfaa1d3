import { listModels } from '@/server/catalog/list-models';
import { toModelDto } from '@/server/catalog/models-dto';
import { publicProcedure, router } from '../init';

export const modelsRouter = router({
  list: publicProcedure.query(async () => (await listModels()).map(toModelDto)),
});
