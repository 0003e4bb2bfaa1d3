// What the admin API and the model endpoints route need from the process's runtime (server/runtime): the
// compiled routing table with a way to rebuild it after a write (rt.routing), and key health (rt.health).
import { processRuntime } from '@/server/runtime/process-runtime';
import type { KeyState } from './key-health';
import { reportKeyHealth, type KeyHealthReport } from './key-health-report';
import type { RoutingTable } from './routing-table';

export type { KeyState };

export interface RoutingHandle {
  table(): RoutingTable;
  /** Rebuilds the table from every source now (other instances follow the revision within seconds). */
  reload(): Promise<void>;
}

/** The part of KeyHealth (key-health.ts) that views read. */
export interface KeyHealthReader {
  view(ref: string): { state: KeyState };
}

/** The part of EndpointStats (endpoint-stats.ts) that views read. */
export interface EndpointStatsReader {
  view(providerId: string, upstreamModel: string): { latencyMs: number | null; tokensPerSecond: number | null };
}

export interface RuntimeRouting {
  routing: RoutingHandle;
  health: KeyHealthReader;
  stats: EndpointStatsReader;
}

/** The process runtime's routing and health, once the operators' entries were first loaded. */
export async function runtimeRouting(): Promise<RuntimeRouting> {
  const rt = processRuntime();
  await rt.routing.ready;
  return { routing: rt.routing, health: rt.health, stats: rt.endpointStats };
}

/** Every provider key of this server with its live state, failures and last error (GET /api/v1/admin/key-health, upstream:health). */
export async function runtimeKeyHealthReport(): Promise<KeyHealthReport> {
  const rt = processRuntime();
  await rt.routing.ready;
  return reportKeyHealth(rt.routing.table(), rt.health);
}
