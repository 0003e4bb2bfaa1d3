import { listInstanceAuditLog } from '@/server/audit/list-audit-log';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

/** Every account's audit log (or one account's), newest first, with the account audit log's filters. */
export const GET = adminRoute(async ({ request }) => listInstanceAuditLog(Object.fromEntries(new URL(request.url).searchParams)));
