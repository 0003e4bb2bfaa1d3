// The console's "Providers" view of one model: its endpoints (model-endpoints.ts: provider, prices, limits,
// status from key health) with this server's recent latency and throughput to each. User-safe: provider
// ids and names only, never key ids, key refs or errors of upstream keys.
import { modelEndpoints } from './model-endpoints';
import type { EndpointStatsReader, KeyHealthReader } from './runtime-routing';
import type { RoutingTable } from './routing-table';

export function modelProviders(p: { table: RoutingTable; health: KeyHealthReader; stats: EndpointStatsReader; id: string }) {
  const { data } = modelEndpoints(p.table, p.health, p.id);
  return {
    ...data,
    endpoints: data.endpoints.map((e) => {
      const measured = p.stats.view(e.provider, e.upstream_model);
      return {
        ...e,
        /** Exponentially weighted time to first token on this instance, ms; null until measured. */
        latency_ms: measured.latencyMs === null ? null : Math.round(measured.latencyMs),
        tokens_per_second: measured.tokensPerSecond === null ? null : Math.round(measured.tokensPerSecond * 10) / 10,
      };
    }),
  };
}

/** The providers of the routing table, by id and name, for choosing among them (an organization's allowed providers). */
export function listRoutingProviders(table: RoutingTable): { id: string; name: string }[] {
  return [...table.providers.values()].map((p) => ({ id: p.id, name: p.name })).sort((a, b) => a.id.localeCompare(b.id));
}
