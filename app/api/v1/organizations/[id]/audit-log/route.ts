import { auditLogQuery, listAuditLog } from '@/server/audit/list-audit-log';
import { apiRoute, parseQuery } from '@/server/http/api-route';
import { auditLogReply } from '@/server/http/audit-log-reply';
import { authorizeOrganization } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

/** Owners and admins (audit:read); everyone else in the organization gets 403. */
export const GET = apiRoute<{ id: string }>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'audit:read');
  const query = parseQuery(request, auditLogQuery);
  return auditLogReply(request, query, await listAuditLog({ accountId: access.accountId, query }));
});
