// The routing table as a server would compile it now, for the CLI (catalog:list, catalog:import,
// catalog:export), which has no runtime: the same sources (env(), the operators' entries, SWITCHBOARD_CONFIG)
// through the same builder, so the CLI shows what the servers serve (once they polled the revision).
import { env } from '@/server/env';
import { buildRoutingTable, knownProviderIds } from './build-routing-table';
import type { RoutingFile } from './config-schema';
import { loadConfigFile } from './load-config-file';
import { listAdminEntries, loadAdminEntries, type StoredProvider } from './routing-store';
import type { ModelConfigEntry } from './config-schema';
import type { RoutingTable } from './routing-table';

export interface CurrentRouting {
  table: RoutingTable;
  /** SWITCHBOARD_CONFIG, parsed; null when unset. */
  file: RoutingFile | null;
  /** The operators' entries as stored (keys as hints). */
  stored: { providers: StoredProvider[]; models: ModelConfigEntry[] };
}

export async function currentRouting(): Promise<CurrentRouting> {
  const e = env();
  const admin = await loadAdminEntries();
  const file = e.SWITCHBOARD_CONFIG ? loadConfigFile(e.SWITCHBOARD_CONFIG, { knownProviders: knownProviderIds({ env: e, admin }) }) : null;
  const table = buildRoutingTable({ env: e, admin, file });
  return { table, file, stored: await listAdminEntries() };
}
