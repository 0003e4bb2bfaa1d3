import { AppError } from '@/server/errors';
import { apiRoute } from '@/server/http/api-route';
import { checkReadiness } from '@/server/readiness';

export const dynamic = 'force-dynamic';

// Readiness probe (server/readiness.ts): 200 {status: "ready", …}, or 503 (error_type service_unavailable) with metadata.reason.
export const GET = apiRoute(
  async () => {
    const r = await checkReadiness();
    if (!r.ready) throw new AppError('service_unavailable', r.message, { reason: r.reason });
    return { status: 'ready' as const, database: r.database, migrations: r.migrations, configuration: r.configuration };
  },
  { public: true },
);
