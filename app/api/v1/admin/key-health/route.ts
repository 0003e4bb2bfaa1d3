import { adminRoute } from '@/server/http/admin-route';
import { runtimeKeyHealthReport } from '@/server/routing/runtime-routing';

export const dynamic = 'force-dynamic';

/** Live health of every provider key this server routes to (as `npm run cli -- upstream:health`). */
export const GET = adminRoute(async () => runtimeKeyHealthReport());
