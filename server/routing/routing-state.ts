// The runtime's routing table and where it comes from (runtime.routing). The table is rebuilt, never
// edited, when a source changes, and swapped in one assignment: a request in flight keeps the table it
// started with, so a reload drops nothing.
//   - SWITCHBOARD_CONFIG: read at creation (a broken file then stops the server with a message naming the
//     line and field) and again when it changes or on SIGHUP (a broken file is refused, logged, and the
//     previous configuration stays in force);
//   - the operators' entries in the database (admin API, catalog:import): loaded at start, then every
//     POLL_MS when their revision changes (one one-row read off the chat path), so every instance sees a
//     change within 5 s; the instance that made it reloads at once;
//   - the built-in catalog and provider variables, and CUSTOM_PROVIDERS, fixed for the process.
import type { Env } from '@/server/env';
import { buildRoutingTable, knownProviderIds, type RoutingSources } from './build-routing-table';
import { routingFileSchema, type RoutingFile, type RoutingFileInput } from './config-schema';
import { ConfigWatcher } from './config-watcher';
import { loadAdminEntries, routingRevision } from './routing-store';
import type { RoutingTable } from './routing-table';

const POLL_MS = 2_000;

export interface RoutingStateOptions {
  env: Env;
  /** A configuration file to load and watch; default SWITCHBOARD_CONFIG. null: none. */
  configFile?: string | null;
  /** An inline configuration in the file's shape, in place of a file (tests, the bench). */
  config?: RoutingFileInput | null;
  /** Whether to read the operators' entries from the database; default true. */
  database?: boolean;
  pollMs?: number;
}

export class RoutingState {
  private current: RoutingTable;
  private file: RoutingFile | null;
  private admin: RoutingSources['admin'];
  private revision: number | null = null;
  private readonly watcher: ConfigWatcher | null = null;
  private readonly timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;
  /** Resolves once the operators' entries were loaded (or could not be: then the table has the rest). */
  readonly ready: Promise<void>;

  constructor(private readonly options: RoutingStateOptions) {
    this.file = options.config ? routingFileSchema.parse(options.config) : null;
    const path = options.configFile === undefined ? options.env.SWITCHBOARD_CONFIG : options.configFile;
    if (path && !options.config) {
      // Providers the file may name besides its own: built-ins, CUSTOM_PROVIDERS, the operators' (once loaded).
      this.watcher = new ConfigWatcher(path, { knownProviders: () => knownProviderIds({ env: options.env, admin: this.admin }) });
      // Throws for a broken file: the server does not start with a configuration it cannot read.
      this.file = this.watcher.start(
        (file) => {
          this.file = file;
          this.rebuild();
          console.log(`Switchboard: routing configuration reloaded from ${path}`);
        },
        (err) => console.error(`Switchboard: ${err.message}\n  The previous routing configuration stays in force.`),
      );
    }
    this.current = this.build();
    if (options.database === false) {
      this.ready = Promise.resolve();
    } else {
      this.ready = this.poll();
      this.timer = setInterval(() => void this.poll(), options.pollMs ?? POLL_MS);
      this.timer.unref();
    }
  }

  /** The table to route with now (synchronous: no I/O on the chat path). */
  table(): RoutingTable {
    return this.current;
  }

  /** Re-reads the operators' entries now (after an admin write in this process). */
  async reload(): Promise<void> {
    if (this.inflight) await this.inflight; // it may have read the revision before the write
    this.revision = null;
    await this.poll();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.watcher?.close();
  }

  private build(): RoutingTable {
    const table = buildRoutingTable({ env: this.options.env, admin: this.admin, file: this.file });
    for (const w of table.warnings) console.warn(`Switchboard routing: ${w}`);
    return table;
  }

  /** A source that no longer builds (CUSTOM_PROVIDERS' file broke) leaves the previous table in force. */
  private rebuild(): void {
    try {
      this.current = this.build();
    } catch (err) {
      console.error(`Switchboard routing: ${(err as Error).message}\n  The previous routing configuration stays in force.`);
    }
  }

  private poll(): Promise<void> {
    this.inflight ??= this.readAdminEntries().finally(() => (this.inflight = null));
    return this.inflight;
  }

  private async readAdminEntries(): Promise<void> {
    try {
      const revision = await routingRevision();
      if (revision === this.revision) return;
      const entries = await loadAdminEntries();
      for (const w of entries.warnings ?? []) console.warn(`Switchboard routing: ${w}`);
      this.admin = { providers: entries.providers, models: entries.models };
      this.revision = entries.revision;
      this.rebuild();
    } catch (err) {
      console.error('Switchboard routing: reading the operators\u2019 catalog entries failed, will retry:', (err as Error).message);
    }
  }
}
