// GET /api/ready: may this process take traffic? The database answers, every migration of this build is
// applied, and the routing configuration is loaded; and it is not shutting down (SIGTERM: a load balancer
// then stops sending it requests while streams in flight finish). GET /api/health is the liveness probe.
import { database } from '@/server/db';
import { defaultMigrationsDir, readMigrations } from '@/server/db/migrate';
import { processRuntime } from '@/server/runtime/process-runtime';
import { isShuttingDown } from '@/server/runtime/lifecycle';

export type ReadinessReason = 'shutting_down' | 'database_unreachable' | 'migrations_pending' | 'configuration_not_loaded';

export type Readiness =
  | { ready: true; database: { kind: 'pglite' | 'postgres'; latency_ms: number }; migrations: { applied: number }; configuration: { models: number } }
  | { ready: false; reason: ReadinessReason; message: string };

/** The migrations this build ships (read once: they do not change while the process runs). */
let shipped: string[] | undefined;
const shippedMigrations = () => (shipped ??= readMigrations(defaultMigrationsDir()).map((m) => m.name));

const CONFIGURATION_WAIT_MS = 2_000;

/** What readiness needs of the routing state (the process runtime's; tests pass their own). */
export interface RoutingReadiness {
  readonly ready: Promise<void>;
  table(): { list: readonly unknown[] };
}

export async function checkReadiness(routing: RoutingReadiness = processRuntime().routing): Promise<Readiness> {
  if (isShuttingDown()) return { ready: false, reason: 'shutting_down', message: 'This process is shutting down (SIGTERM); requests in flight are finishing.' };
  const started = performance.now();
  let d;
  let applied: Set<string>;
  try {
    d = await database();
    const { rows } = await d.sql.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    applied = new Set(rows.map((r) => r.migration_name));
  } catch (err) {
    return { ready: false, reason: 'database_unreachable', message: `The database does not answer: ${(err as Error).message.slice(0, 200)}` };
  }
  const latency = Math.round((performance.now() - started) * 10) / 10;
  const pending = shippedMigrations().filter((m) => !applied.has(m));
  if (pending.length) return { ready: false, reason: 'migrations_pending', message: `${pending.length} migration(s) not applied: ${pending.slice(0, 5).join(', ')}` };
  const loaded = await Promise.race([routing.ready.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), CONFIGURATION_WAIT_MS).unref())]).catch(() => false);
  if (!loaded) return { ready: false, reason: 'configuration_not_loaded', message: 'The routing configuration (SWITCHBOARD_CONFIG and the operators’ entries) is not loaded yet.' };
  return { ready: true, database: { kind: d.kind, latency_ms: latency }, migrations: { applied: applied.size }, configuration: { models: routing.table().list.length } };
}
