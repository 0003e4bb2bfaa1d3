// The public model list (GET /api/v1/models, the console): the enabled models of this process's routing
// table (routing/routing-state.ts), the same the chat path routes with.
import { processRuntime } from '@/server/runtime/process-runtime';
import type { RoutingModel } from '@/server/routing/routing-table';

export async function listModels(): Promise<RoutingModel[]> {
  const routing = processRuntime().routing;
  await routing.ready;
  return routing.table().list.filter((m) => m.enabled);
}
