// GET /api/ready's checks (readiness.ts) on a real database: ready once migrated with the routing loaded; 503
// with the reason when a migration is missing, the configuration is not loaded, the database does not answer,
// or the process is shutting down. The route answers the spec's error body with metadata.reason.
import { afterEach, expect, it } from 'vitest';
import { GET } from '@/app/api/ready/route';
import { database, setDatabase } from '@/server/db';
import { defaultMigrationsDir, readMigrations } from '@/server/db/migrate';
import { markShuttingDown, resetShuttingDown } from '@/server/runtime/lifecycle';
import { describeEachDatabase } from '@/test/db';
import { checkReadiness, type RoutingReadiness } from './readiness';

const loaded: RoutingReadiness = { ready: Promise.resolve(), table: () => ({ list: ['a', 'b'] }) };
const neverLoaded: RoutingReadiness = { ready: new Promise(() => {}), table: () => ({ list: [] }) };

describeEachDatabase('readiness', (kind) => {
  afterEach(() => resetShuttingDown());

  it('is ready on a migrated database with the routing configuration loaded', async () => {
    const r = await checkReadiness(loaded);
    expect(r).toMatchObject({ ready: true, database: { kind }, configuration: { models: 2 } });
    expect(r.ready && r.migrations.applied).toBe(readMigrations(defaultMigrationsDir()).length);
  });

  it('names what is missing: a migration, the configuration, the database; and says so once shutting down', { timeout: 30_000 }, async () => {
    const d = await database();
    const [{ migration_name: last }] = (await d.sql.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1')).rows;
    await d.sql.query('UPDATE _prisma_migrations SET rolled_back_at = now() WHERE migration_name = $1', [last]);
    expect(await checkReadiness(loaded)).toMatchObject({ ready: false, reason: 'migrations_pending', message: expect.stringContaining(last) });
    await d.sql.query('UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = $1', [last]);

    expect(await checkReadiness(neverLoaded)).toMatchObject({ ready: false, reason: 'configuration_not_loaded' });

    setDatabase({ ...d, sql: { query: () => Promise.reject(new Error('connection refused')), exec: () => Promise.reject(new Error('connection refused')) } });
    try {
      expect(await checkReadiness(loaded)).toMatchObject({ ready: false, reason: 'database_unreachable', message: expect.stringContaining('connection refused') });
    } finally {
      setDatabase(d);
    }

    markShuttingDown();
    expect(await checkReadiness(loaded)).toMatchObject({ ready: false, reason: 'shutting_down' });
    const res = await GET(new Request('http://localhost/api/ready'), { params: Promise.resolve({}) });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 503, metadata: { error_type: 'service_unavailable', reason: 'shutting_down' } } });
  });
});
