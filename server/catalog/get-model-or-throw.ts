// One model of the public list (GET /api/v1/models/{author}/{slug}, OpenAI's models.retrieve): the same
// enabled models listModels() answers, so a model that is listed can be retrieved and no other.
import { AppError } from '@/server/errors';
import type { RoutingModel } from '@/server/routing/routing-table';
import { listModels } from './list-models';

/** By id, else by one of its aliases (the names /chat/completions and /messages take too): the model under its own id. */
export async function getModelOrThrow(id: string): Promise<RoutingModel> {
  const models = await listModels();
  const model = models.find((m) => m.id === id) ?? models.find((m) => m.aliases.includes(id));
  if (!model) throw new AppError('not_found', `Model "${id}" not found. GET /api/v1/models lists the models.`, { model: id });
  return model;
}
