// What the admin API and the model endpoints route need from the process's runtime: its compiled routing
// table (with a way to rebuild it after a write) and its key health. Read through this one function so that
// the REST routes do not depend on how the runtime builds them (server/runtime owns that).
import { AppError } from '@/server/errors';
import { processRuntime } from '@/server/runtime/process-runtime';
import type { RoutingTable } from './routing-table';

export interface RoutingHandle {
  table(): RoutingTable;
  /** Rebuilds the table from every source now (other instances follow the revision within seconds). */
  reload(): Promise<void>;
}

/** key-health.ts's KeyState (the health helper's KeyHealth satisfies KeyHealthReader). */
export type KeyState = 'healthy' | 'cooling' | 'open' | 'half_open';

export interface KeyHealthReader {
  view(ref: string): { state: KeyState };
}

export interface RuntimeRouting {
  routing: RoutingHandle;
  health: KeyHealthReader;
}

/** The process runtime's routing and health (rt.routing, rt.health). */
export function runtimeRouting(): RuntimeRouting {
  const rt = processRuntime() as unknown as Partial<RuntimeRouting>;
  if (!rt.routing || !rt.health) throw new AppError('service_unavailable', 'Routing is not ready on this instance yet');
  return { routing: rt.routing, health: rt.health };
}
